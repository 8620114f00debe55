import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { readRegularFile, whyUnreadable } from '../core/regular-file.js';

const RunStartSchema = z.looseObject({
  type: z.literal('run_start'),
  run_id: z.string(),
  task: z.string().optional(),
  variant: z.string(),
  model: z.string(),
});
const ModelCallSchema = z.looseObject({
  type: z.literal('model_call'),
  step: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cache_read_tokens: z.number(),
  cache_write_tokens: z.number(),
  ms: z.number(),
  role: z.string().optional(),
});
const ToolCallSchema = z.looseObject({
  type: z.literal('tool_call'),
  step: z.number(),
  tool: z.string(),
  decision: z.string(),
  is_error: z.boolean(),
  ms: z.number(),
});
const RunEndSchema = z.looseObject({
  type: z.literal('run_end'),
  status: z.string(),
  detail: z.string().optional(),
  stats: z.looseObject({
    steps: z.number(),
    // An adapter agent's tokens are only here (its trace has no model_call events).
    inputTokens: z.number().optional(),
    outputTokens: z.number().optional(),
    cacheReadTokens: z.number().optional(),
    cacheWriteTokens: z.number().optional(),
  }),
});
const RunResumeSchema = z.looseObject({
  type: z.literal('run_resume'),
  step: z.number(),
  state: z.string(),
});
const SimpleSchema = z.looseObject({
  type: z.enum(['model_retry', 'model_fallback', 'approval_pending', 'summary_skipped']),
});

/** The events a report reads; other event types are skipped (newer traces stay readable). */
export const ReportEventSchema = z.discriminatedUnion('type', [
  RunStartSchema,
  ModelCallSchema,
  ToolCallSchema,
  RunEndSchema,
  RunResumeSchema,
  SimpleSchema,
]);
export type ReportEvent = z.infer<typeof ReportEventSchema>;

export interface TraceFile {
  /** Relative to the folder the user named. */
  file: string;
  events: ReportEvent[];
  /** Lines that could not be read, e.g. one cut short by a crash: `line 7: not JSON`. */
  problems: string[];
}

const KNOWN = new Set([
  'run_start',
  'model_call',
  'tool_call',
  'run_end',
  'run_resume',
  ...SimpleSchema.shape.type.options,
]);

/** Read one JSONL trace; bad lines become problems, never a thrown error. */
export function parseTrace(text: string, file: string): TraceFile {
  const events: ReportEvent[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      problems.push(`line ${index + 1}: not JSON (cut short by a crash?)`);
      return;
    }
    const type = (data as { type?: unknown } | null)?.type;
    if (typeof type !== 'string' || !KNOWN.has(type)) return;
    const parsed = ReportEventSchema.safeParse(data);
    if (parsed.success) events.push(parsed.data);
    else
      problems.push(
        `line ${index + 1}: ${type} event without ${parsed.error.issues[0]?.path.join('.')}`,
      );
  });
  return { file, events, problems };
}

/**
 * Every `*.jsonl` trace under the given files and folders (recursively, sorted). A file whose
 * first event is not `run_start` is not a run trace and is left out.
 */
export async function readTraces(paths: readonly string[]): Promise<TraceFile[]> {
  const traces: TraceFile[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info)
      throw new ConfigError(
        `${path} does not exist; name a trace file or a folder of traces (e.g. runs/)`,
      );
    const files = info.isDirectory() ? await jsonlFiles(path) : [path];
    for (const file of files) {
      const trace = parseTrace(
        await readTraceText(file),
        info.isDirectory() ? relative(path, file) : file,
      );
      if (trace.events[0]?.type === 'run_start') traces.push(trace);
    }
  }
  return traces;
}

async function jsonlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await jsonlFiles(path)));
    else if (entry.name.endsWith('.jsonl')) files.push(path);
  }
  return files;
}

/** A trace's text; a file that cannot be read (a FIFO, no permission) is named, not a hang. */
async function readTraceText(file: string): Promise<string> {
  try {
    return (await readRegularFile(file)).toString('utf8');
  } catch (error) {
    throw new ConfigError(
      `${file} cannot be read (${whyUnreadable(error)}); name a trace file or a folder of traces (e.g. runs/)`,
      { cause: error },
    );
  }
}
