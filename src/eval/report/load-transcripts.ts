import { isAbsolute, relative, resolve as resolvePath, sep } from 'node:path';
import { errorMessage } from '../../core/errors.js';
import { readRegularFile } from '../../core/regular-file.js';
import { readCassette } from '../../replay/cassette-file.js';
import type { TraceEvent } from '../../runtime/trace.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { type TrialTranscript, trialTranscript } from '../transcript/transcript-formats.js';

export type { TrialTranscript } from '../transcript/transcript-formats.js';

async function readTrace(file: string): Promise<TraceEvent[]> {
  let text: string;
  try {
    // Only a regular file: a FIFO would hold a pool thread and the report for good.
    text = (await readRegularFile(file)).toString('utf8');
  } catch {
    return [];
  }
  // A crashed run keeps the lines it wrote; a torn last line is skipped, not fatal.
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as TraceEvent];
    } catch {
      return [];
    }
  });
}

/** Decode one trial's cassette and trace; never throws (the report still gets written). */
export async function loadTranscript(
  record: TrialRecord,
  projectDir: string,
): Promise<TrialTranscript> {
  // Records may come from shard files (CI artifacts): read nothing outside the project.
  const resolve = (file: string) => {
    const path = resolvePath(projectDir, file);
    const inside = relative(resolvePath(projectDir), path);
    if (inside === '' || inside.split(sep)[0] === '..' || isAbsolute(inside)) {
      throw new Error(`${file} is outside the project (${projectDir}); not read`);
    }
    return path;
  };
  let trace: TraceEvent[] = [];
  const unavailable = (why: string): TrialTranscript =>
    trace.length > 0 ? { unavailable: why, trace } : { unavailable: why };
  try {
    trace = record.tracePath ? await readTrace(resolve(record.tracePath)) : [];
    if (!record.fixture) return unavailable('no cassette recorded for this trial');
    return trialTranscript(await readCassette(resolve(record.fixture)), trace);
  } catch (error) {
    return unavailable(errorMessage(error));
  }
}

/** Transcripts of the given trials, a few files at a time, in the records' order. */
export async function loadTranscripts(
  records: readonly TrialRecord[],
  projectDir: string,
): Promise<TrialTranscript[]> {
  const results: TrialTranscript[] = new Array(records.length);
  const width = 16;
  for (let start = 0; start < records.length; start += width) {
    const batch = records.slice(start, start + width);
    const loaded = await Promise.all(batch.map((record) => loadTranscript(record, projectDir)));
    loaded.forEach((value, index) => {
      results[start + index] = value;
    });
  }
  return results;
}
