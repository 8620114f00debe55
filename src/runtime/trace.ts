import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
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
    }
  | { type: 'run_end'; status: string; detail?: string; stats: RunStats; ts: string };

export interface TraceSink {
  write(event: TraceEvent): void;
}

const CARD_NUMBER = /(?<!\d)(\d{4})\d{4,11}(\d{4})(?!\d)/g;

/** Tool inputs are logged, but never a full card number (the model may have typed one). */
export function redactForTrace(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null).replace(CARD_NUMBER, '$1****$2'));
}

/**
 * Appends each event as it happens, so a crash keeps everything written before it.
 * The file is started empty: one file holds one run.
 */
export function createJsonlTrace(file: string): TraceSink & { readonly file: string } {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '');
  return {
    file,
    write: (event) => appendFileSync(file, `${JSON.stringify(event)}\n`),
  };
}

export function createMemoryTrace(): TraceSink & { readonly events: TraceEvent[] } {
  const events: TraceEvent[] = [];
  return { events, write: (event) => events.push(event) };
}
