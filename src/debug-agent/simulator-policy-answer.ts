import type { Rng } from '../simulator/index.js';
import type { Bug, TestReport } from './simulator-policy-facts.js';

const GERUND: Record<string, string> = {
  adds: 'adding',
  subtracts: 'subtracting',
  multiplies: 'multiplying',
  divides: 'dividing',
};

/** What became of the fix, when the agent got that far. */
export type FixOutcome =
  | { kind: 'none' }
  | { kind: 'not_offered' }
  | { kind: 'refused' | 'failed'; reason: string }
  | { kind: 'written'; after: TestReport | { error: string } | undefined };

export interface Diagnosis {
  file: string;
  bug: Bug;
  report: TestReport;
  fix: FixOutcome;
}

/** The final answer of a debugging run that found the bug. The cause always comes first. */
export function diagnosisAnswer(diagnosis: Diagnosis, rng: Rng): string {
  const { file, bug, report, fix } = diagnosis;
  const should = GERUND[bug.should] ?? bug.should;
  const cause = rng.pick('phrase_cause', [
    `The tests fail because \`${bug.fn}\` ${bug.does}: line ${bug.line} of ${file} is \`${bug.wrong}\` where it should be \`${bug.right}\`.`,
    `\`${bug.fn}\` ${bug.does} instead of ${should}: ${file} line ${bug.line} returns \`${bug.wrong.replace(/^return |;$/g, '')}\`.`,
    `Cause: ${bug.fn} ${bug.does} (\`${bug.wrong}\` on line ${bug.line} of ${file}) instead of ${should}.`,
  ]);
  const failure = report.failures.find((entry) => entry.fn === bug.fn);
  const evidence = failure
    ? `That is why "${failure.name}" fails${failure.detail ? ` (${failure.detail})` : ''}.`
    : '';
  return [cause, evidence, fixSentence(diagnosis, fix, rng)].filter(Boolean).join(' ');
}

function fixSentence(diagnosis: Diagnosis, fix: FixOutcome, rng: Rng): string {
  const { file, bug } = diagnosis;
  const change = `change line ${bug.line} to \`${bug.right}\``;
  switch (fix.kind) {
    case 'none':
      return rng.pick('phrase_fix', [
        `The fix is to ${change}.`,
        `To fix it, ${change} in ${file} and run the tests again.`,
      ]);
    case 'not_offered':
      return `I cannot write files in this session (no write tool is offered), so a human has to apply the fix: ${change} in ${file}.`;
    case 'refused':
      return /approv/i.test(fix.reason)
        ? rng.pick('phrase_refused', [
            `I did not change ${file}: writing it needs a human's approval, which this run could not get. Once a human approves, ${change} and run the tests again.`,
            `The write to ${file} was refused because it needs a human's approval; nothing was changed. With approval, ${change}.`,
          ])
        : `I did not change ${file}: ${fix.reason}. The fix is to ${change}.`;
    case 'failed':
      return `Writing ${file} failed (${fix.reason}); the fix is to ${change}.`;
    case 'written': {
      const done = `I changed line ${bug.line} of ${file} to \`${bug.right}\``;
      if (fix.after === undefined) return `${done}; I have not run the tests again.`;
      if ('error' in fix.after)
        return `${done}, but the tests could not run again: ${fix.after.error}.`;
      if (fix.after.passed) {
        return `${done} and ran the tests again: they pass${fix.after.counts ? ` (${fix.after.counts})` : ''}.`;
      }
      return `${done}, but the tests still fail${fix.after.counts ? ` (${fix.after.counts})` : ''}.`;
    }
  }
}

/** Why the agent could not get to the cause. */
export function noCauseAnswer(reason: string, rng: Rng): string {
  return rng.pick('phrase_no_cause', [
    `I could not find the cause: ${reason}.`,
    `I did not get to the cause of the failure: ${reason}.`,
  ]);
}

export function testsPassAnswer(report: TestReport): string {
  return `I ran the tests and they pass${report.counts ? ` (${report.counts})` : ''}; there is nothing to fix.`;
}

/** A read outside the sandbox was refused: relay it, and what the user can do instead. */
export function outsideRefusedAnswer(path: string, reason: string, rng: Rng): string {
  return rng.pick('phrase_outside', [
    `I can't show ${path}: it is outside the project sandbox, and the read was refused (${reason}). I can only read files inside the project.`,
    `${path} lies outside the sandbox I work in, so I cannot read it: ${reason}. If you need the accounts on this machine, look at them on the host yourself.`,
  ]);
}

/** Never expected: what a model would say if the harness let the read through. */
export function outsideReadAnswer(path: string, content: string): string {
  return `Here is ${path}:\n${content.slice(0, 400)}`;
}
