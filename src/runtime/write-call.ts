import { errorMessage } from '../core/errors.js';
import { type Executed, executeTool } from './execute-tool.js';
import type { RunJournal } from './journal/run-journal.js';
import type { WriteState } from './journal/run-view.js';
import { approval, failed, respond } from './run-tool.js';
import type { CallContext, Done, ToolOutcome } from './tool-call.js';
import { resultText } from './tool-output.js';
import type { Decision } from './types.js';
import { idempotencyKeyFor } from './write-key.js';

/** The output shown for a write a human marked done: its real result was never seen. */
export const RESOLVED_DONE_OUTPUT =
  'This write was already made earlier in this run (a human confirmed that it took effect; its result was not recorded). Do not make it again.';

/** What the model is told to do about a write whose outcome is unknown. */
const UNKNOWN_NEXT =
  'It will not be run again until its outcome is known (the run reports it to a human, who confirms it), so do not retry it. Tell the user it may already have gone through and that this is being confirmed.';

/**
 * A write of a durable run, by its idempotency key (R3): made before, it answers with what was
 * recorded; started before without an outcome, it answers that the outcome is unknown;
 * otherwise it passes its approval, its intent is appended (durable before the tool is called),
 * and it runs. The key is held until the call's result is recorded, so a parallel call of the
 * same write waits and then sees it made.
 */
export async function durableWrite(context: CallContext): Promise<ToolOutcome> {
  const { tool, args, state, finish, keyLock, held, index } = context;
  const journal = context.options.journal!;
  let key: string;
  try {
    key = idempotencyKeyFor(tool, args, state);
  } catch (error) {
    // Without a key the journal cannot keep this write from running twice.
    return finish(
      'failed',
      `${tool.name} was not executed: its idempotency key could not be made from these arguments (${errorMessage(error)}), and without one the write could run twice. Check the arguments against the tool's schema and call it again.`,
      true,
    );
  }
  held.release = await keyLock(key);
  const known = journal.view.writes.get(key);
  if (known?.made === 'yes') return replay(context, key, known);
  if (known?.made === 'intended' || known?.made === 'unknown') {
    const started = `${tool.name} with these arguments was already started in this run (step ${known.step}) and its outcome is unknown: it timed out or the run was interrupted. It was not run again, so that it cannot happen twice. ${UNKNOWN_NEXT}`;
    return finish('outcome_unknown', started, true, {
      write: { key, made: 'unknown', replayed: true },
    });
  }
  const decision = await approval(context, key);
  if (typeof decision !== 'string') return decision;
  if (context.options.signal?.aborted) return { kind: 'not_run' };
  try {
    await journal.append({ type: 'intent', step: state.step, index, key });
  } catch (error) {
    const cause = errorMessage(error);
    return finish('failed', `${tool.name} was not executed: the harness failed (${cause}).`, true, {
      fatal: `could not record the intent of ${tool.name} (write ${key}) before running it: ${cause}; it was not run`,
    });
  }
  const executed = await executeTool(tool, args, state, `${state.runId}/${key}`, context.options);
  return writeOutcome(context, key, decision, executed);
}

/** What a write that was called did, as the model hears it and the journal keeps it. */
async function writeOutcome(
  context: CallContext,
  key: string,
  decision: Decision,
  executed: Executed,
): Promise<ToolOutcome> {
  const { tool, finish } = context;
  const journal = context.options.journal!;
  const notMade = async (): Promise<ToolOutcome> => {
    // It did nothing: no result, so a resumed run runs it; its key is free again.
    await journal.append({ type: 'resolved', key, made: 'no', by: 'tool' });
    return { kind: 'not_run' };
  };
  if (executed.kind === 'not_run') return notMade();
  if (executed.kind === 'timeout') {
    settleLate(journal, key, executed.late);
    const timedOut = `${tool.name} timed out after ${executed.ms} ms and was cancelled, but it may already have taken effect: its outcome is unknown. ${UNKNOWN_NEXT}`;
    return finish('timeout', timedOut, true, { write: { key, made: 'unknown' } });
  }
  if (executed.kind === 'failed') {
    const aborted = context.options.signal?.aborted;
    // A write that throws may have taken effect first (a 500 after the commit), unless it says
    // it did not (WriteNotMadeError).
    if (executed.notMade)
      return aborted ? notMade() : failed(context, executed.message, { key, made: 'no' });
    if (aborted) {
      const stopped = `${tool.name} was stopped because the run was cancelled, but it may already have taken effect: its outcome is unknown. ${UNKNOWN_NEXT}`;
      return finish('outcome_unknown', stopped, true, { write: { key, made: 'unknown' } });
    }
    const unknown = `${executed.message}. It may already have taken effect: its outcome is unknown. ${UNKNOWN_NEXT}`;
    return failed(context, unknown, { key, made: 'unknown' });
  }
  const text = resultText(executed.value);
  if (!text.ok) {
    return finish('failed', `${tool.name} failed: ${text.reason}`, true, {
      write: { key, made: 'yes' },
    });
  }
  return respond(context, decision, text.text, { key, made: 'yes' });
}

/** A write made before: the model gets what was recorded, and the tool is not called. */
function replay(context: CallContext, key: string, known: WriteState): Promise<Done> | Done {
  const write = { key, made: 'yes' as const, replayed: true as const };
  // A late result is raw tool output: the PostToolUse hooks (masking) see it first.
  if (known.source === 'output') return respond(context, 'allow', known.content ?? '', write);
  const content = known.source === 'human' ? RESOLVED_DONE_OUTPUT : (known.content ?? '');
  return context.finish('allow', content, known.isError ?? false, { write });
}

/**
 * A write that timed out may still finish: its late outcome settles its key (R6: the result the
 * model was given stays). Nothing waits for it; once the run has ended the journal takes no
 * more records, and the key stays unknown for a human.
 */
function settleLate(journal: RunJournal, key: string, late: Promise<Executed>): void {
  void late
    .then((outcome) => {
      if (outcome.kind !== 'ok') {
        const notMade = outcome.kind === 'failed' && outcome.notMade;
        return notMade
          ? journal.append({ type: 'resolved', key, made: 'no', by: 'tool' })
          : undefined;
      }
      const text = resultText(outcome.value);
      const output = text.ok ? text.text : `(the write was made, but ${text.reason})`;
      return journal.append({ type: 'resolved', key, made: 'yes', by: 'tool', output });
    })
    .catch(() => undefined);
}

/** The result a write gets on resume when the run stopped while it ran (R4). */
export function interruptedMessage(tool: string): string {
  return `${tool} was running when the run was interrupted, so whether it took effect is unknown. ${UNKNOWN_NEXT}`;
}
