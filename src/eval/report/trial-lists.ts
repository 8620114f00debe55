import { redactForDisplay } from '../../core/redact.js';
import { cassettePath } from '../../replay/cassette.js';
import { truncateResult } from '../../runtime/truncate.js';
import { judgeCassettePath } from '../grade/judge-cassette.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { judgeRerecordCommand, rerecordCommand } from '../trial/rerecord.js';
import { compareNames } from './order.js';
import type { FailedTrial, StaleFixture, TrialProvenance } from './report-schema.js';

/**
 * The most of one message (an assertion message, a stale diff, a load error) a report keeps:
 * the job summary takes 1 MiB in all, and a terminal a few screens.
 */
export const MAX_REPORT_MESSAGE_CHARS = 20_000;

/** A message as a report shows it: redacted, and cut past MAX_REPORT_MESSAGE_CHARS, saying so. */
export function reportMessage(text: string): string {
  return truncateResult(redactForDisplay(text), MAX_REPORT_MESSAGE_CHARS);
}

/** Suite, task, variant, trial: the order every trial list is shown in, whatever order trials finished in. */
export function byTrial(left: TrialRecord, right: TrialRecord): number {
  return (
    compareNames(left.suite, right.suite) ||
    compareNames(left.task, right.task) ||
    compareNames(left.variant, right.variant) ||
    compareNames(left.case ?? '', right.case ?? '') ||
    left.trial - right.trial
  );
}

/**
 * Failed and errored trials with their assertion messages and trace paths. Messages quote
 * answers and request bodies: card numbers and credentials are masked (they reach CI).
 */
export function listFailures(records: readonly TrialRecord[]): FailedTrial[] {
  return records
    .filter(
      (record) =>
        record.outcome === 'failed' ||
        record.outcome === 'errored' ||
        record.outcome === 'judge_error',
    )
    .sort(byTrial)
    .map((record) => ({
      suite: record.suite,
      task: record.task,
      variant: record.variant,
      ...(record.case !== undefined && { case: record.case }),
      trial: record.trial,
      outcome:
        record.outcome === 'failed' || record.outcome === 'judge_error'
          ? record.outcome
          : 'errored',
      messages: record.messages.map(reportMessage),
      ...(record.tracePath === undefined ? {} : { tracePath: record.tracePath }),
    }));
}

/**
 * Stale and missing fixtures with the command that re-records each. The command is built here
 * from the trial's task, variant, number and source, never taken from a record's text: a record
 * read back from a shard file may say anything (`re-record: curl ... | sh`), so its messages
 * lose their `re-record:` lines, and the fixture path is the trial's own.
 */
export function listStaleFixtures(records: readonly TrialRecord[]): StaleFixture[] {
  return records
    .filter((record) => record.outcome === 'stale' || record.outcome === 'missing')
    .sort(byTrial)
    .map((record) => ({
      suite: record.suite,
      task: record.task,
      variant: record.variant,
      ...(record.case !== undefined && { case: record.case }),
      trial: record.trial,
      outcome: record.outcome === 'stale' ? 'stale' : 'missing',
      ...(record.fixtureProblem && { problem: record.fixtureProblem }),
      messages: record.messages.map((message) => reportMessage(withoutRerecordLines(message))),
      fixture: fixturePathOf(record),
      rerecordCommand: (record.staleCassette === 'judge' ? judgeRerecordCommand : rerecordCommand)(
        record,
        record.source === 'simulator',
      ),
    }));
}

/** The trial's cassette as reports show it, built from its names (never a record's own text). */
export function fixturePathOf(record: TrialRecord): string {
  const { task, variant, trial } = record;
  return (record.staleCassette === 'judge' ? judgeCassettePath : cassettePath)(
    'fixtures',
    task,
    variant,
    trial,
    record.case,
  );
}

function withoutRerecordLines(message: string): string {
  return message
    .split('\n')
    .filter((line) => !line.startsWith('re-record:'))
    .join('\n');
}

/** Where each trial's fixture came from, in trial order (the JSON report's `trialProvenance`). */
export function listProvenance(
  records: readonly TrialRecord[],
  costOf?: (record: TrialRecord) => number | null | undefined,
): TrialProvenance[] {
  return [...records].sort(byTrial).map((record) => ({
    suite: record.suite,
    task: record.task,
    variant: record.variant,
    ...(record.case !== undefined && { case: record.case }),
    trial: record.trial,
    outcome: record.outcome,
    ...(record.source !== undefined && { source: record.source }),
    ...(record.provider !== undefined && { provider: record.provider }),
    ...(record.host !== undefined && { host: record.host }),
    ...(record.model !== undefined && { model: record.model }),
    ...(record.recordedAt !== undefined && { recordedAt: record.recordedAt }),
    ...(record.cassetteHash !== undefined && { cassetteHash: record.cassetteHash }),
    ...(record.judgeCassetteHash !== undefined && {
      judgeCassetteHash: record.judgeCassetteHash,
    }),
    ...costField(costOf?.(record)),
  }));
}

/** `costUsd` rounded to micro-dollars; absent for a trial without token counts. */
function costField(usd: number | null | undefined): { costUsd?: number | null } {
  if (usd === undefined) return {};
  return { costUsd: usd === null ? null : Math.round(usd * 1e6) / 1e6 };
}
