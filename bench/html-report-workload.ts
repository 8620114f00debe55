import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport } from '../src/eval/report/build-report.js';
import { type HtmlTrial, renderHtml } from '../src/eval/report/html.js';
import { loadTranscript } from '../src/eval/report/load-transcripts.js';
import type { TrialRecord } from '../src/eval/spec/trial-record.js';
import type { TrialTranscript } from '../src/eval/transcript/transcript-formats.js';

/** A synthetic HTML report for the viewer's figures. */
export interface ReportWorkload {
  /** Trials per task and variant (20 rows: 10 tasks x 2 variants). */
  trials: number;
  /** Every text of every trial made distinct: nothing is shared, the worst case for size. */
  unique?: boolean;
  /** Pad each trial's last tool result with distinct synthetic lines until the file is about this size. */
  targetBytes?: number;
}

/** Every string of a decoded transcript with `tag` added: no two trials share a text. */
function distinct(loaded: TrialTranscript, tag: string): TrialTranscript {
  if (!('transcript' in loaded)) return loaded;
  const texts = new Set(['system', 'user', 'text', 'input', 'result', 'finalAnswer']);
  return {
    ...loaded,
    transcript: JSON.parse(JSON.stringify(loaded.transcript), (key, value: unknown) =>
      texts.has(key) && typeof value === 'string' ? `${value} ${tag}` : value,
    ),
  };
}

/** The trial's last tool result, `bytes` longer: lines no other trial has. */
function padded(loaded: TrialTranscript, bytes: number, tag: string): TrialTranscript {
  if (!('transcript' in loaded) || bytes <= 0) return loaded;
  const line = `synthetic tool output for ${tag}: order lookup, payment lookup, retry log entry\n`;
  const filler = Array.from(
    { length: Math.ceil(bytes / line.length) },
    (_, index) => `${index} ${line}`,
  ).join('');
  const transcript = structuredClone(loaded.transcript);
  const calls = transcript.turns.flatMap((turn) =>
    turn.blocks.flatMap((block) => (block.kind === 'tool' ? [block.call] : [])),
  );
  const last = calls.at(-1);
  if (last) last.result = `${last.result ?? ''}\n${filler}`;
  else transcript.finalAnswer = `${transcript.finalAnswer}\n${filler}`;
  return { ...loaded, transcript };
}

/** A trial's model latencies and token counts, from its cassette's turns. */
function figuresOf(loaded: TrialTranscript): Pick<TrialRecord, 'modelLatenciesMs' | 'stats'> {
  const turns = 'transcript' in loaded ? loaded.transcript.turns : [];
  const sum = (pick: (turn: (typeof turns)[number]) => number) =>
    turns.reduce((total, turn) => total + pick(turn), 0);
  return {
    modelLatenciesMs: turns.map((turn) => turn.latencyMs),
    stats: {
      steps: turns.length,
      toolCalls: sum((turn) => turn.blocks.filter((block) => block.kind === 'tool').length),
      toolErrors: 0,
      unconfirmedWrites: 0,
      inputTokens: sum((turn) => turn.tokens.input),
      outputTokens: sum((turn) => turn.tokens.output),
      cacheReadTokens: sum((turn) => turn.tokens.cacheRead),
      cacheWriteTokens: sum((turn) => turn.tokens.cacheWrite),
      modelMs: sum((turn) => turn.latencyMs),
      toolMs: 0,
    },
  };
}

/**
 * The trials of every committed task and variant, `trials` of each: trial n replays the
 * committed cassette ((n-1) % recorded) + 1 (with its trace under runs/eval when there is one);
 * one trial in four failed, with an assertion message.
 */
async function benchTrials(projectDir: string, workload: ReportWorkload): Promise<HtmlTrial[]> {
  const fixtures = join(projectDir, 'fixtures');
  const rows: HtmlTrial[] = [];
  for (const task of readdirSync(fixtures).sort()) {
    for (const variant of readdirSync(join(fixtures, task)).sort()) {
      // The trials' own cassettes, not their judges' (trial-<n>.judge.json).
      const recorded = readdirSync(join(fixtures, task, variant)).filter((f) =>
        /^trial-\d+\.json$/.test(f),
      );
      // A dataset task's cassettes are in case folders: its trials are not this workload's.
      if (recorded.length === 0) continue;
      const sources = new Map<number, TrialTranscript>();
      for (let trial = 1; trial <= workload.trials; trial += 1) {
        const source = ((trial - 1) % recorded.length) + 1;
        const failed = trial % 4 === 0;
        const record: TrialRecord = {
          suite: task.startsWith('D') ? 'debug-agent' : 'refund-desk',
          task,
          title: task,
          variant,
          trial,
          outcome: failed ? 'failed' : 'passed',
          messages: failed ? [`synthetic assertion message of ${task} ${variant} ${trial}`] : [],
          modelLatenciesMs: [],
          fixture: `fixtures/${task}/${variant}/trial-${source}.json`,
          tracePath: `runs/eval/${task}/${variant}/trial-${source}.jsonl`,
          source: 'simulator',
          model: 'claude-opus-5',
        };
        if (!sources.has(source)) sources.set(source, await loadTranscript(record, projectDir));
        const loaded = sources.get(source)!;
        rows.push({
          record: { ...record, ...figuresOf(loaded) },
          transcript: workload.unique ? distinct(loaded, `#${task}-${variant}-${trial}`) : loaded,
        });
      }
    }
  }
  return rows;
}

/** The report's HTML and how many trials it holds. */
export async function benchReportHtml(
  projectDir: string,
  workload: ReportWorkload,
): Promise<{ html: string; trials: number }> {
  let rows = await benchTrials(projectDir, workload);
  const report = buildReport({
    records: rows.map((row) => row.record),
    trials: workload.trials,
    floors: [],
    generatedAt: new Date(),
  });
  let html = renderHtml(report, rows);
  if (workload.targetBytes !== undefined) {
    const missing = workload.targetBytes - Buffer.byteLength(html);
    const each = Math.floor(missing / rows.length);
    rows = rows.map((row, index) => ({
      ...row,
      transcript: padded(row.transcript, each, `trial ${index}`),
    }));
    html = renderHtml(report, rows);
  }
  return { html, trials: rows.length };
}
