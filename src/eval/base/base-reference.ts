import { join } from 'node:path';
import { z } from 'zod';
import { errorMessage } from '../../core/errors.js';
import { readRegularFile } from '../../core/regular-file.js';
import { type EvalReport, parseReport } from '../report/report-schema.js';
import type { Changes } from '../spec/changes-schema.js';
import { fixtureChanges } from './fixture-changes.js';
import { fileAt, resolveCommit } from './git.js';
import { inputChanges } from './input-changes.js';
import { type ReferenceRow, referenceChanges } from './reference-changes.js';

const REFERENCE = 'reports/reference.json';

export interface BaseComparison {
  /** What the gate compares with: the base's reference, or this checkout's when lowering is allowed. */
  reference: { file: string; report: EvalReport } | undefined;
  changes: Changes;
  /** Why the gate must fail, when the base's reference cannot be compared and nothing allows it. */
  problem?: string;
}

const LenientRows = z.object({
  tasks: z.array(
    z.object({
      suite: z.string(),
      task: z.string(),
      variant: z.string(),
      n: z.number(),
      passed: z.number(),
      passAt1: z.number().nullable(),
      passHatK: z.record(z.string(), z.number().nullable()),
    }),
  ),
});

/** The rows of a reference this build cannot read whole (another schema version), if any. */
function rowsOf(text: string): { tasks: ReferenceRow[] } | undefined {
  try {
    const parsed = LenientRows.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `--reference-from REF`: the reference read from REF's reports/reference.json, not from this
 * checkout's, so a pull request cannot lower the bar it is judged by; and what the checkout
 * changed against REF (the reference's rows, the cassettes), for the top of the report. A
 * lowered reference (a row lower, or gone) is compared against only when `allowLower` (a
 * maintainer's flag or label): then the gate reads this checkout's reference.
 */
export async function compareWithBase(
  projectDir: string,
  ref: string,
  allowLower: boolean,
): Promise<BaseComparison> {
  const commit = await resolveCommit(projectDir, ref, '--reference-from');
  const baseText = await fileAt(projectDir, commit, REFERENCE);
  const shownBase = `${ref}:${REFERENCE}`;
  let base: EvalReport | undefined;
  let baseProblem: string | undefined;
  try {
    base = baseText === undefined ? undefined : parseReport(baseText, shownBase);
  } catch (error) {
    baseProblem = errorMessage(error);
  }
  // A reference of an older format: its rows still say whether this checkout's is lower.
  const baseRows = base ?? (baseText === undefined ? undefined : rowsOf(baseText));
  const checkoutText = await readRegularFile(join(projectDir, REFERENCE)).then(
    (bytes) => bytes.toString('utf8'),
    () => undefined,
  );
  let checkout: EvalReport | undefined;
  let unreadable: string | undefined;
  try {
    checkout = checkoutText === undefined ? undefined : parseReport(checkoutText, REFERENCE);
  } catch (error) {
    unreadable = errorMessage(error);
  }
  const diff = referenceChanges(baseRows, checkout);
  const { fixtures, leftOut } = await fixtureChanges(projectDir, commit);
  const taskIds = [
    ...new Set([...(baseRows?.tasks ?? []), ...(checkout?.tasks ?? [])].map((row) => row.task)),
  ];
  const inputs = await inputChanges(projectDir, commit, taskIds);
  const useCheckout = allowLower && (diff.lowered || baseProblem !== undefined) && checkout;
  const compared = useCheckout ? 'checkout' : base ? 'base' : 'none';
  const changes: Changes = {
    ref,
    commit,
    reference: {
      ...diff,
      allowed: allowLower,
      ...(unreadable && { unreadable }),
      ...(baseProblem && { baseUnreadable: baseProblem }),
    },
    compared,
    fixtures,
    fixturesLeftOut: leftOut,
    inputs,
  };
  const reference =
    compared === 'checkout'
      ? { file: REFERENCE, report: checkout! }
      : base
        ? { file: shownBase, report: base }
        : undefined;
  const problem =
    baseProblem && !useCheckout
      ? `${baseProblem.replace(/; regenerate it.*$/, '')}: the gate cannot compare with the base's reference; a maintainer allows comparing with this checkout's (--allow-lower-reference; in CI the allow-lower-reference label)`
      : undefined;
  return { reference, changes, ...(problem && { problem }) };
}

/**
 * reports/reference.json as it is at the git ref `ref` (`record --verify --base REF`): what a
 * pull request's live cassettes are checked against, so that changing a hash in the pull
 * request's own reference changes nothing. Undefined when REF has none.
 */
export async function referenceAt(
  projectDir: string,
  ref: string,
  flag: string,
): Promise<{ file: string; report: EvalReport } | undefined> {
  const commit = await resolveCommit(projectDir, ref, flag);
  const text = await fileAt(projectDir, commit, REFERENCE);
  if (text === undefined) return undefined;
  const file = `${ref}:${REFERENCE}`;
  return { file, report: parseReport(text, file) };
}
