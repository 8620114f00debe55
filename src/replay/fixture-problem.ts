import { type ErrorCode, FixtureError } from '../core/errors.js';
import { displayPath } from './cassette-file.js';

/** Which trial a cassette belongs to. */
export interface TrialLabel {
  task: string;
  variant: string;
  trial: number;
  suite?: string | undefined;
  /** The dataset case, for a task over cases. */
  case?: string | undefined;
}

export type FixtureProblemCode = Extract<ErrorCode, `fixture_${string}`>;

export interface ProblemContext {
  file: string;
  label: TrialLabel;
  rerecordCommand: string;
}

const STATE: Record<FixtureProblemCode, string> = {
  fixture_missing: 'is missing',
  fixture_stale: 'is stale',
  fixture_corrupt: 'is corrupt',
  fixture_exhausted: 'is exhausted',
  fixture_leftover: 'has leftover exchanges',
  fixture_secret: 'holds a credential',
  fixture_edited: 'was edited after it was recorded',
};

/**
 * A FixtureError naming the file, the trial, what went wrong and the fix:
 * `<file> is stale (task T1, variant upgraded, trial 2): <detail>\nre-record: <command>`.
 */
export function fixtureProblem(
  code: FixtureProblemCode,
  context: ProblemContext,
  detail: string,
  cause?: unknown,
): FixtureError {
  const message = `${displayPath(context.file)} ${STATE[code]} (${describeLabel(context.label)}): ${detail}\nre-record: ${context.rerecordCommand}`;
  return new FixtureError(code, message, cause === undefined ? {} : { cause });
}

export function describeLabel(label: TrialLabel): string {
  const suite = label.suite === undefined ? '' : `suite ${label.suite}, `;
  const testCase = label.case === undefined ? '' : `case ${label.case}, `;
  return `${suite}task ${label.task}, variant ${label.variant}, ${testCase}trial ${label.trial}`;
}
