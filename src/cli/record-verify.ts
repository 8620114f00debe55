import { relative } from 'node:path';
import { errorMessage } from '../core/errors.js';
import { referenceAt } from '../eval/base/base-reference.js';
import { loadReference } from '../eval/run/finish-run.js';
import { rederiveWithTaskScripts } from '../eval/run/rederive-tasks.js';
import { groupRerecordCommands } from '../eval/trial/rerecord.js';
import {
  type FixtureVerdict,
  NOT_IN_REFERENCE,
  verifyFixtures,
} from '../eval/verify/verify-fixtures.js';
import { terminalLine } from './terminal-text.js';

/**
 * `record --verify`: every selected cassette checked, nothing recorded; 1 when any does not
 * match (or a live one could not be checked), else 0. The project's eval files are loaded first,
 * so each cassette is re-derived with what recorded it: its task's model script or judge script,
 * else the built-in simulator.
 */
export async function verify(options: {
  tasks?: string[];
  variants?: string[];
  trialNumbers?: number[];
  /** `--base REF`: live hashes are checked against REF's reference, not the checkout's. */
  base?: string;
}): Promise<number> {
  const { base, ...selection } = options;
  const projectDir = process.cwd();
  let reference: Awaited<ReturnType<typeof loadReference>>;
  let noReference =
    base === undefined ? 'no reports/reference.json' : `no ${base}:reports/reference.json`;
  if (base !== undefined) {
    // The base's, never the pull request's: a hash changed in the PR's reference proves nothing.
    reference = await referenceAt(projectDir, base, '--base');
  } else {
    try {
      reference = await loadReference(projectDir, undefined);
    } catch (error) {
      noReference = `reports/reference.json could not be read (${errorMessage(error)})`;
    }
  }
  const tasks = await rederiveWithTaskScripts({ projectDir, ...selection });
  // A task file that does not load cannot say what recorded its cassettes: not "all match".
  for (const error of tasks?.loadErrors ?? []) {
    console.log(terminalLine(`✗ ${error}: its tasks' scripts are unknown`));
  }
  const verdicts = await verifyFixtures({
    projectDir,
    ...selection,
    ...(reference && { reference: reference.report.trialProvenance }),
    ...(tasks && { scripted: tasks.verdicts }),
    ...(base !== undefined && { referenceName: `${base}:reports/reference.json` }),
  });
  const bad = verdicts.filter((verdict) => verdict.problems.length > 0);
  for (const verdict of bad) {
    // File names and what a hand-edited cassette says are shown, never obeyed by the terminal.
    console.log(terminalLine(`✗ ${verdict.fixture} (${verdict.source ?? 'unreadable'})`));
    for (const problem of verdict.problems) console.log(`    ${terminalLine(problem)}`);
  }
  // Unchecked is not a match: a cassette relabelled live would otherwise pass unseen.
  const unchecked = verdicts.filter((verdict) => verdict.unchecked);
  const shownReference =
    reference && (base === undefined ? relative(projectDir, reference.file) : reference.file);
  const why = reference
    ? `${shownReference} has no content hash for it (its run replayed --trials ${reference.report.trials})`
    : noReference;
  for (const verdict of unchecked) {
    console.log(terminalLine(`? ${verdict.fixture} (live): not checked: ${why}`));
  }
  const loadErrors = tasks?.loadErrors.length ?? 0;
  console.log(summary(verdicts, { bad: bad.length, unchecked: unchecked.length, loadErrors }));
  printFixes(bad, unchecked, reference?.report.trials);
  return bad.length === 0 && unchecked.length === 0 && loadErrors === 0 ? 0 : 1;
}

function summary(
  verdicts: readonly FixtureVerdict[],
  counts: { bad: number; unchecked: number; loadErrors: number },
): string {
  const count = (test: (verdict: FixtureVerdict) => boolean) => verdicts.filter(test).length;
  const live = count((verdict) => verdict.source === 'live');
  const scripted = count((verdict) => verdict.rederivedBy !== undefined);
  const unscripted = count((verdict) => verdict.notRederived === true);
  const simulator = count((verdict) => verdict.source === 'simulator') - unscripted - scripted;
  const verdict = [
    counts.bad > 0 && `${counts.bad} ${counts.bad === 1 ? 'does' : 'do'} not match`,
    counts.unchecked > 0 && `${counts.unchecked} live not checked`,
    counts.loadErrors > 0 &&
      `${counts.loadErrors} eval ${counts.loadErrors === 1 ? 'file' : 'files'} did not load`,
  ].filter(Boolean);
  return `${verdicts.length} cassettes checked (${simulator} simulator re-derived, ${scripted} re-derived with the task's own scripts, ${unscripted} from model scripts no task declares, ${live - counts.unchecked} live hash-checked): ${verdict.join(', ') || 'all match'}`;
}

/** The commands that make verify pass: re-record what does not match, or update the reference. */
function printFixes(
  bad: readonly FixtureVerdict[],
  unchecked: readonly FixtureVerdict[],
  referenceTrials: number | undefined,
): void {
  // A live cassette whose only problem is the reference's hash: re-recording it would not
  // match the reference either; taking it into the reference does (after review).
  const referenceOnly = bad.filter((verdict) =>
    verdict.problems.every((problem) => problem.startsWith(NOT_IN_REFERENCE)),
  );
  const toRecord = bad.filter((verdict) => !referenceOnly.includes(verdict));
  const commands = groupRerecordCommands(
    toRecord.flatMap((verdict) => verdict.rerecordCommand ?? []),
  );
  if (commands.length > 0)
    console.log(`Re-record with:\n${commands.map((line) => `  ${line}`).join('\n')}`);
  const trials = Math.max(
    referenceTrials ?? 0,
    ...[...referenceOnly, ...unchecked].map((verdict) => trialOf(verdict.fixture)),
  );
  if (referenceOnly.length > 0) {
    console.log(
      `Its content is not the one the reference replayed: review the cassette's diff, then take it into the reference with:\n  npm run eval -- --trials ${trials} --update-reference`,
    );
  } else if (unchecked.length > 0) {
    console.log(
      `A live cassette is checked against the content hash reports/reference.json replayed: make the reference cover it (npm run eval -- --trials ${trials} --update-reference, and commit it), or re-record it`,
    );
  }
}

const trialOf = (fixture: string) =>
  Number(/trial-(\d+)(?:\.judge)?\.json$/.exec(fixture)?.[1] ?? 0);
