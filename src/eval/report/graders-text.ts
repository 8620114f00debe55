import type { GradersModel, JudgeRow } from './graders-model.js';

/**
 * The words the three renderers share about graders, so the terminal, markdown and HTML
 * reports say the same thing.
 */
export const SCORES_NOTE =
  'Mean of each score over the counted trials, 95% interval (Wilson at the mean: a score in [0, 1] varies at most as a pass/fail with that rate). Judged checks score the mean of their samples.';

export const JUDGES_NOTE =
  "How far each judged check can be trusted, pooled over the task's variants. This is the judge's own variation, apart from the agent's trial-to-trial variance (pass@k / pass^k): flip rate = share of trial×model pairs whose samples did not all agree; κ = agreement across judge models beyond chance (Cohen for two, Fleiss for more); calibration = the majority verdict against the committed human labels. A verdict is the majority of all votes; a tie is a fail.";

/** The header and cells of the judges table, one row per judged check. */
export function judgeTable(rows: readonly JudgeRow[]): { head: string[]; cells: string[][] } {
  return {
    head: [
      'Task',
      'Check',
      'Judge × samples',
      'Verdicts',
      'Flip rate',
      'κ across judges',
      'vs humans',
    ],
    cells: rows.map((row) => [
      row.task,
      row.check,
      row.text.models,
      row.text.verdicts,
      row.text.flip,
      row.text.kappa,
      row.text.calibration,
    ]),
  };
}

/** One line per judged check about its calls: replayed ones are shown as such, never as cost. */
export function judgeCallLines(rows: readonly JudgeRow[]): string[] {
  return rows.map(
    (row) =>
      `${row.task} ${row.check}: judge calls ${row.text.calls}; live cost and latency: ${row.text.liveCost}`,
  );
}

/** The header and cells of the scores table. */
export function scoreTable(graders: GradersModel): { head: string[]; cells: string[][] } {
  return {
    head: ['Task', 'Variant', 'Score', 'Mean [95%]', 'Threshold', 'Passed'],
    cells: graders.scores.map((score) => [
      score.task,
      score.variant,
      score.source === 'judge' ? `${score.name} (judge)` : score.name,
      score.mean,
      score.threshold,
      score.passed,
    ]),
  };
}

/** "T7 upgraded trial 2 polite-refusal: pass (3/3, 0.83) human pass: <reasoning>" */
export function judgedTrialLine(trial: GradersModel['judgedTrials'][number]): string {
  const votes = `${trial.votes.pass}/${trial.votes.pass + trial.votes.fail}`;
  const score = trial.score === null ? '' : `, ${trial.score.toFixed(2)}`;
  const human = trial.human ? `, human: ${trial.human}` : '';
  const why = trial.errors?.[0] ?? trial.reasoning ?? '';
  return `${trial.task} ${trial.variant} trial ${trial.trial} ${trial.check}: ${trial.verdict} (${votes} pass votes${score}${human}; ${trial.calls})${why ? `: ${why}` : ''}`;
}
