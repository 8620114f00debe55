import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { redactValue } from '../core/redact.js';
import type { ModelEvent } from './model-client.js';
import type { RunStats } from './types.js';

/** One line of a run's JSONL trace. Tool result text is never written: lengths only. */
export type TraceEvent =
  | {
      type: 'run_start';
      run_id: string;
      task?: string;
      variant: string;
      model: string;
      mode: string;
      system_chars: number;
      ts: string;
    }
  | {
      type: 'model_call';
      step: number;
      stop_reason: string | null;
      input_tokens: number;
      output_tokens: number;
      cache_read_tokens: number;
      cache_write_tokens: number;
      ms: number;
      /** Set for calls other than the main loop's (e.g. `summarize`), with their model id. */
      role?: string;
      model?: string;
    }
  | {
      type: 'tool_call';
      step: number;
      tool: string;
      input: unknown;
      decision: string;
      is_error: boolean;
      ms: number;
      result_chars: number;
      /** The write's recorded result was returned; the tool did not run again. */
      replayed?: boolean;
    }
  | { type: 'run_end'; status: string; detail?: string; stats: RunStats; ts: string }
  /** A retry or a fallback of the model layer, during the model call of `step`. */
  | (ModelEvent & { step: number })
  /** The run continues from its checkpoint after `step` completed steps. */
  | { type: 'run_resume'; run_id: string; step: number; state: string; ts: string }
  /** A call waits for a human's decision; the run is paused (resume it with the decision). */
  | { type: 'approval_pending'; step: number; tool: string; input: unknown; reason: string }
  /** The run's lock was left by a process that is gone (pid, host, since): this one took it over. */
  | {
      type: 'run_lock_taken_over';
      run_id: string;
      pid: number;
      host: string;
      started_at: string;
      ts: string;
    }
  /** A human decided a write whose outcome was unknown (`--resolve-write`). */
  | { type: 'write_resolved'; key: string; resolution: string; ts: string }
  /** Summarising trimmed history failed; the run went on with a plain omission note. */
  | { type: 'summary_skipped'; step: number; error: string };

export interface TraceSink {
  write(event: TraceEvent): void;
}

/**
 * Tool inputs are logged, but never a full card number or a credential (the model may have
 * typed one). Works on the value, so a 19-digit JSON number cannot break it; never throws.
 */
export function redactForTrace(value: unknown): unknown {
  return redactValue(value ?? null);
}

/**
 * Appends each event as it happens, so a crash keeps everything written before it.
 * The file is started empty: one file holds one run. A resumed run passes `append: true`
 * to continue its file.
 */
export function createJsonlTrace(
  file: string,
  options: { append?: boolean } = {},
): TraceSink & { readonly file: string } {
  mkdirSync(dirname(file), { recursive: true });
  if (!options.append) writeFileSync(file, '');
  return {
    file,
    // Every event, not only tool inputs: details and reasons may quote a tool's text.
    write: (event) => appendFileSync(file, `${JSON.stringify(redactValue(event))}\n`),
  };
}

export function createMemoryTrace(): TraceSink & { readonly events: TraceEvent[] } {
  const events: TraceEvent[] = [];
  return { events, write: (event) => events.push(event) };
}
