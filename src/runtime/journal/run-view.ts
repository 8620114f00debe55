import type Anthropic from '@anthropic-ai/sdk';
import { addUsage, anthropicUsage } from '../../model-api/token-usage.js';
import type { HistorySummary } from '../history-summary.js';
import { repeatedId, toolCallsOf } from '../model-turn.js';
import { emptyStats } from '../stop-rules.js';
import type { RunStats, ToolCall, ToolCallRecord } from '../types.js';
import type { FactOf, JournalRecord, ModelAnswered, ResultRecord, RunStarted } from './records.js';
import { RunStore } from './run-store.js';

/** Where a write stands, per idempotency key: intended (started, no outcome yet), made, not made, unknown. */
export interface WriteState {
  key: string;
  tool: string;
  step: number;
  made: 'intended' | 'yes' | 'no' | 'unknown';
  /** What the model saw when it was made (a result), or a late result's raw output. */
  content?: string;
  /** `output`: `content` is raw tool output, not yet through the PostToolUse hooks. */
  source?: 'result' | 'output' | 'human';
  /** The result that made it was an error (its output could not be shown). */
  isError?: boolean;
  /** The tool answered the model that the outcome is unknown (it timed out, or was cut off). */
  toldUnknown?: true;
}

/** The step whose tool calls have not all got a result yet. */
export interface OpenStep {
  step: number;
  calls: ToolCall[];
  results: Array<ResultRecord | undefined>;
  approvals: Array<FactOf<'approval'> | undefined>;
  /** The key of each call whose intent was logged. */
  intents: Array<string | undefined>;
}

/** A run as its journal says it is: what resume continues from, and what a live run keeps. */
export interface RunView {
  started: RunStarted;
  /** The last record's seq (0 before the first). */
  seq: number;
  step: number;
  messages: Anthropic.MessageParam[];
  summary: HistorySummary | undefined;
  history: ToolCallRecord[];
  /** Per history entry, its error text (undefined for a success): the stop rules read it. */
  errorTexts: Array<string | undefined>;
  stats: RunStats;
  /** The tools' per-run store. */
  store: Map<string, unknown>;
  open: OpenStep | undefined;
  /** The latest model answer. */
  last: ModelAnswered | undefined;
  writes: Map<string, WriteState>;
  finished: FactOf<'run_finished'> | undefined;
}

export function startView(started: RunStarted): RunView {
  return {
    started,
    seq: started.seq,
    step: 0,
    messages: [{ role: 'user', content: started.prompt }],
    summary: undefined,
    history: [],
    errorTexts: [],
    stats: emptyStats(),
    store: new RunStore(),
    open: undefined,
    last: undefined,
    writes: new Map(),
    finished: undefined,
  };
}

/**
 * Resume is a left fold over the journal: the same `applyRecord` a live run appends through.
 * A record that does not follow from the ones before it is damage: `problem` names it.
 */
export function foldJournal(
  records: readonly JournalRecord[],
): { view: RunView } | { problem: string; seq: number } {
  const [first, ...rest] = records;
  if (first?.type !== 'run_started')
    return { problem: 'it does not start with run_started', seq: 1 };
  const view = startView(first);
  for (const record of rest) {
    const problem = applyRecord(view, record);
    if (problem !== undefined) return { problem, seq: record.seq };
  }
  return { view };
}

/**
 * Applies one record to the view (which it changes in place); a record the view cannot take
 * (a call of no open step, a second result, anything after the run finished) is refused with
 * the reason, and changes nothing.
 */
export function applyRecord(view: RunView, record: JournalRecord): string | undefined {
  const problem = refusal(view, record);
  if (problem !== undefined) return problem;
  view.seq = record.seq;
  switch (record.type) {
    case 'model_answered':
      answered(view, record);
      break;
    case 'summary':
      view.summary = { text: record.text, messages: record.messages };
      view.stats.modelMs += record.ms;
      addUsage(view.stats, anthropicUsage(record.usage));
      break;
    case 'approval':
      view.open!.approvals[record.index] = record;
      break;
    case 'intent':
      intended(view, record);
      break;
    case 'result':
      resulted(view, record);
      break;
    case 'resolved':
      resolved(view, record);
      break;
    case 'run_finished':
      view.finished = record;
      break;
  }
  return undefined;
}

/** Why `record` cannot follow the records the view was folded from; undefined when it can. */
export function refusal(view: RunView, record: JournalRecord): string | undefined {
  // A human may still settle a write of a finished run; nothing else comes after its end.
  if (view.finished && record.type !== 'resolved') return 'a record after run_finished';
  switch (record.type) {
    case 'run_started':
      return 'a second run_started';
    case 'model_answered': {
      const calls = toolCallsOf(record.content as unknown as Anthropic.ContentBlock[]);
      if (repeatedId(calls) !== undefined) return 'a model answer with two tool calls under one id';
      if (view.open)
        return `a model answer while step ${view.open.step} still has calls without a result`;
      return record.step === view.step + 1
        ? undefined
        : `step ${record.step} after step ${view.step}`;
    }
    case 'summary':
      return record.step === view.step + 1
        ? undefined
        : `a summary for step ${record.step} after step ${view.step}`;
    case 'approval':
    case 'intent':
    case 'result': {
      const open = view.open;
      if (open?.step !== record.step || record.index >= open.calls.length) {
        return `a ${record.type} for call ${record.index} of step ${record.step}, which has no such call waiting`;
      }
      return open.results[record.index]
        ? `a ${record.type} for call ${record.index} of step ${record.step}, which has its result`
        : undefined;
    }
    case 'resolved':
      return view.writes.has(record.key) ? undefined : `write ${record.key} was never started`;
    case 'run_finished':
      // A stop rule may end the run on an answer whose calls never ran (the token budget).
      return undefined;
  }
}

function answered(view: RunView, record: ModelAnswered): void {
  view.step = record.step;
  view.last = record;
  view.messages.push({
    role: 'assistant',
    content: record.content as unknown as Anthropic.ContentBlockParam[],
  });
  view.stats.modelMs += record.ms;
  addUsage(view.stats, anthropicUsage(record.usage));
  const calls = toolCallsOf(record.content as unknown as Anthropic.ContentBlock[]);
  view.open =
    record.stopReason === 'tool_use' && calls.length > 0
      ? { step: record.step, calls, results: [], approvals: [], intents: [] }
      : undefined;
}

function intended(view: RunView, record: FactOf<'intent'>): void {
  const call = view.open!.calls[record.index]!;
  view.open!.intents[record.index] = record.key;
  view.writes.set(record.key, {
    key: record.key,
    tool: call.name,
    step: record.step,
    made: 'intended',
  });
}

function resulted(view: RunView, record: ResultRecord): void {
  const open = view.open!;
  open.results[record.index] = record;
  if (record.store) {
    // In place: the tools of a live run hold this map.
    view.store.clear();
    for (const [name, value] of Object.entries(record.store)) view.store.set(name, value);
  }
  const { write } = record;
  const settled = write && view.writes.get(write.key);
  if (write?.made === 'unknown' && settled && settled.made !== 'intended') {
    // Its late outcome came in before this result was recorded: the outcome stands.
    settled.toldUnknown = true;
  } else if (write && !write.replayed) {
    const call = open.calls[record.index]!;
    view.writes.set(write.key, {
      key: write.key,
      tool: call.name,
      step: record.step,
      made: write.made,
      content: record.content,
      source: 'result',
      isError: record.isError,
      ...(write.made === 'unknown' && { toldUnknown: true as const }),
    });
  }
  if (open.calls.every((_, index) => open.results[index] !== undefined)) completed(view, open);
}

/** Every call of the step has its result: they join the history, in call order. */
function completed(view: RunView, open: OpenStep): void {
  for (const [index, call] of open.calls.entries()) {
    const result = open.results[index]!;
    view.history.push(toCallRecord(call, result));
    view.errorTexts.push(result.isError ? result.content : undefined);
    countCall(view.stats, result);
  }
  view.messages.push({
    role: 'user',
    content: open.results.map((result, index) => toolResultBlock(open.calls[index]!, result!)),
  });
  view.open = undefined;
}

/** Adds one finished call to the run's figures. */
export function countCall(stats: RunStats, result: ResultRecord): void {
  stats.toolCalls += 1;
  stats.toolMs += result.ms;
  if (result.isError) stats.toolErrors += 1;
  // A write that ran without a human's yes (`allow`), even when what came after it failed; not
  // one answered from the journal (made before).
  if (result.effect === 'write' && result.decision === 'allow' && !result.write?.replayed) {
    stats.unconfirmedWrites += 1;
  }
}

function resolved(view: RunView, record: FactOf<'resolved'>): void {
  const state = view.writes.get(record.key)!;
  state.made = record.made;
  if (record.by === 'human') {
    state.source = 'human';
    delete state.content;
  } else if (record.output !== undefined) {
    state.source = 'output';
    state.content = record.output;
  }
}

export function toCallRecord(call: ToolCall, result: ResultRecord): ToolCallRecord {
  return {
    step: result.step,
    id: call.id,
    tool: call.name,
    input: call.input,
    decision: result.decision,
    isError: result.isError,
    ms: result.ms,
    resultChars: result.content.length,
    effect: result.effect,
    ...(result.write?.replayed && { replayed: true }),
  };
}

/** The tool_result block a call's result is sent to the model as. */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: true;
}

export function toolResultBlock(
  call: ToolCall,
  result: Pick<ResultRecord, 'content' | 'isError'>,
): ToolResultBlock {
  const block = { type: 'tool_result' as const, tool_use_id: call.id, content: result.content };
  return result.isError ? { ...block, is_error: true } : block;
}
