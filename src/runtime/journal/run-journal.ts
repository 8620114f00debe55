import { errorMessage } from '../../core/errors.js';
import type { JournalSink, JournalStore } from './journal-store.js';
import {
  type FactOf,
  JournalError,
  type JournalFact,
  type JournalRecord,
  type RunStarted,
} from './records.js';
import { applyRecord, type RunView, refusal, startView } from './run-view.js';

/**
 * A run's journal as the loop uses it: `append` gives a fact its seq and time, makes it durable
 * (when the run has a sink), then applies it to `view`. Without a sink (eval trials) it is the
 * same fold in memory: no file, no fsync, no store snapshots.
 */
export interface RunJournal {
  readonly view: RunView;
  /** Kept in a sink: write-ahead intents, approvals that wait for a human, resume. */
  readonly durable: boolean;
  append(fact: JournalFact): Promise<void>;
  /**
   * The run is over (its lock is let go): a late outcome that arrives afterwards is not
   * appended, so no two processes write one journal. Its write stays unknown, for a human.
   */
  close(): void;
}

export function createRunJournal(
  view: RunView,
  options: { now: () => number; sink?: JournalSink | undefined },
): RunJournal {
  const { sink } = options;
  const apply = (record: JournalRecord) => {
    const problem = applyRecord(view, record);
    // The loop appends only what follows: anything else is a bug in the runtime.
    if (problem !== undefined)
      throw new Error(`the run journal refused its own record: ${problem}`);
  };
  const at = () => new Date(options.now()).toISOString();
  if (!sink) {
    return {
      view,
      durable: false,
      async append(fact) {
        apply({ ...fact, seq: view.seq + 1, at: at() } as JournalRecord);
      },
      close() {},
    };
  }
  let tail: Promise<void> = Promise.resolve();
  let broken: Error | undefined;
  let closed = false;
  let savedStore = JSON.stringify(Object.fromEntries(view.store));
  /** Any failed append breaks the journal: nothing more is appended, so no seq is skipped. */
  const breaks = (error: unknown): never => {
    broken ??= error instanceof Error ? error : new Error(errorMessage(error));
    throw broken;
  };
  return {
    view,
    durable: true,
    close() {
      closed = true;
    },
    async append(fact) {
      if (closed)
        throw new JournalError(
          'journal_write',
          `the run journal ${sink.source} is closed: the run has ended`,
        );
      if (broken) throw broken;
      // Built whole before it takes a seq: a record that cannot be made leaves no gap.
      let built: JournalFact;
      try {
        built = withStore(fact);
      } catch (error) {
        return breaks(error);
      }
      const written = tail.then(async () => {
        if (broken) throw broken;
        const record = { ...built, seq: view.seq + 1, at: at() } as JournalRecord;
        // Checked before it reaches the disk: a record the journal cannot take would damage it.
        const problem = refusal(view, record);
        if (problem !== undefined)
          breaks(new Error(`the run journal refused its own record: ${problem}`));
        try {
          await sink.append(record);
        } catch (error) {
          // The line may be half-written: nothing more is appended after it.
          breaks(
            new JournalError(
              'journal_write',
              `could not append to the run journal ${sink.source} (${errorMessage(error)})`,
              { cause: error },
            ),
          );
        }
        apply(record);
      });
      tail = written.catch(() => undefined);
      return written;
    },
  };

  /** A result carries the tools' store when it changed, so a resumed run's store matches. */
  function withStore(fact: JournalFact): JournalFact {
    if (fact.type !== 'result') return fact;
    let text: string;
    try {
      text = JSON.stringify(Object.fromEntries(view.store));
    } catch (error) {
      throw new JournalError(
        'journal_write',
        `the tools' store could not be saved in the run journal (${errorMessage(error)}): keep JSON values in run.store`,
      );
    }
    if (text === savedStore) return fact;
    savedStore = text;
    return { ...fact, store: JSON.parse(text) as Record<string, unknown> };
  }
}

/**
 * A new run's journal: its run_started record, kept in `store` when the run is durable (the
 * store refuses a run id it has already), in memory otherwise.
 */
export async function startRunJournal(
  fact: FactOf<'run_started'>,
  options: { now: () => number; store?: JournalStore | undefined },
): Promise<RunJournal> {
  const first: RunStarted = { ...fact, seq: 1, at: new Date(options.now()).toISOString() };
  const sink = await options.store?.create(fact.runId, first);
  return createRunJournal(startView(first), { now: options.now, sink });
}
