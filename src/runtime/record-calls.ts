import type { ToolOutcome } from './pipeline.js';
import type { GuardedTrace } from './trace-guard.js';
import type { RunStats, ToolCallRecord } from './types.js';

export interface CallRecords {
  history: ToolCallRecord[];
  /** Per call, its error text (undefined for a success): the stop rules read it. */
  errorTexts: (string | undefined)[];
  stats: RunStats;
  trace?: GuardedTrace | undefined;
}

/** Puts finished calls in the run's history, stats and trace. */
export function recordCalls(
  records: CallRecords,
  step: number,
  outcomes: readonly ToolOutcome[],
): void {
  const { history, errorTexts, stats, trace } = records;
  for (const { record, result } of outcomes) {
    history.push(record);
    errorTexts.push(result.is_error ? result.content : undefined);
    stats.toolCalls += 1;
    stats.toolMs += record.ms;
    if (record.isError) stats.toolErrors += 1;
    // `allow` is a write that ran unconfirmed, even when what came after it failed (a hook).
    if (record.effect === 'write' && record.decision === 'allow') stats.unconfirmedWrites += 1;
    trace?.write({
      type: 'tool_call',
      step,
      tool: record.tool,
      input: record.input ?? null,
      decision: record.decision,
      is_error: record.isError,
      ms: record.ms,
      result_chars: record.resultChars,
      ...(record.replayed && { replayed: true }),
    });
  }
}
