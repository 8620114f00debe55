import { formatAmount, formatRate, NONE } from './format.js';
import { formatInterval, rateWithInterval } from './format-interval.js';
import type { JudgedTrial, JudgeSummary } from './grader-schema.js';
import type { EvalReport, FailedTrial } from './report-schema.js';

/** One mean score of one row, as every renderer shows it. */
export interface ScoreCell {
  suite: string;
  task: string;
  variant: string;
  name: string;
  source: 'check' | 'judge';
  /** "0.83 [0.55, 0.95]" */
  mean: string;
  threshold: string;
  /** "2/3": trials whose score passed, of those with the score. */
  passed: string;
}

/** One judged check's reliability, as text. */
export interface JudgeRow extends JudgeSummary {
  text: {
    /** "claude-sonnet-5 × 3" */
    models: string;
    /** "5 pass / 1 fail / 0 error" */
    verdicts: string;
    /** "0.17 (of 6 trial×model pairs)", or "— (one sample)" */
    flip: string;
    /** "Cohen 0.40 [−0.20, 1.00] (6 trials)", or "— (one model)" */
    kappa: string;
    /** "5/6 = 0.83 [0.44, 0.97]; κ 0.67 [..]", or "— (no human labels)" */
    calibration: string;
    /** "6 replayed (simulator), 0 live" */
    calls: string;
    /** "— (no live call)" or "1,234 in / 56 out; p50 80 ms, p95 120 ms" */
    liveCost: string;
  };
}

export interface GradersModel {
  scores: ScoreCell[];
  judges: JudgeRow[];
  judgedTrials: JudgedTrial[];
  /** Trials whose judge gave no usable verdict (their checks had passed): apart from failures. */
  judgeErrors: FailedTrial[];
}

function kappaText(kappa: JudgeSummary['kappa']): string {
  if (!kappa) return `${NONE} (one model)`;
  const method = kappa.method === 'cohen' ? 'Cohen' : 'Fleiss';
  if (kappa.value === null)
    return `${method} ${NONE} (no variation to agree on; ${kappa.trials} trials)`;
  const interval = kappa.interval ? ` ${formatInterval(kappa.interval, true)}` : ' [n too small]';
  return `${method} ${kappa.value.toFixed(2)}${interval} (${kappa.trials} trials)`;
}

export function calibrationText(calibration: JudgeSummary['calibration']): string {
  if (!calibration) return `${NONE} (no human labels)`;
  if (calibration.compared === 0)
    return `${NONE} (${calibration.file} labels none of these trials)`;
  const accuracy = `${calibration.agree}/${calibration.compared} agree = ${rateWithInterval(calibration.accuracy, calibration.accuracyInterval)}`;
  const kappa =
    calibration.kappa === null
      ? `κ ${NONE} (no variation)`
      : `κ ${calibration.kappa.toFixed(2)}${calibration.kappaInterval ? ` ${formatInterval(calibration.kappaInterval, true)}` : ' [n too small]'}`;
  return `${accuracy}; ${kappa}`;
}

function callsText(calls: JudgeSummary['calls']): { calls: string; liveCost: string } {
  const sources = calls.sources.length > 0 ? ` (${calls.sources.join(' + ')})` : '';
  const parts = [
    `${calls.replayed} replayed${calls.replayed > 0 ? sources : ''}`,
    `${calls.live + calls.recorded} live${calls.recorded > 0 ? `, ${calls.recorded} of them recorded` : ''}${calls.replayed === 0 ? sources : ''}`,
  ];
  const live = calls.live + calls.recorded;
  const liveCost =
    live === 0
      ? `${NONE} (no live call; replayed calls cost nothing and are not counted)`
      : `${formatAmount(calls.liveInputTokens)} in / ${formatAmount(calls.liveOutputTokens)} out tokens${calls.sources.includes('simulator') ? ' (simulator estimates)' : ''}; p50 ${formatAmount(calls.liveLatencyMs.p50)} ms, p95 ${formatAmount(calls.liveLatencyMs.p95)} ms`;
  return { calls: parts.join(', '), liveCost };
}

function judgeRow(judge: JudgeSummary): JudgeRow {
  return {
    ...judge,
    text: {
      models: judge.models
        .map((model) =>
          judge.script === undefined
            ? `${model} × ${judge.samples}`
            : `judge script '${judge.script}' (as ${model}) × ${judge.samples}`,
        )
        .join(', '),
      verdicts: `${judge.verdicts.pass} pass / ${judge.verdicts.fail} fail / ${judge.verdicts.error} error`,
      flip:
        judge.flipRate === null
          ? `${NONE} (one sample)`
          : `${rateWithInterval(judge.flipRate, judge.flipInterval)} (of ${judge.flipPairs} trial×model pairs)`,
      kappa: kappaText(judge.kappa),
      calibration: calibrationText(judge.calibration),
      ...callsText(judge.calls),
    },
  };
}

/**
 * The graders' part of the report model: mean scores with intervals, each judged check's
 * agreement and calibration, and the judge errors. Undefined when the run had no score and no
 * judge, so a report without graders renders as before.
 */
export function buildGradersModel(report: EvalReport): GradersModel | undefined {
  const scores = report.tasks.flatMap((row) =>
    (row.scores ?? []).map(
      (score): ScoreCell => ({
        suite: row.suite,
        task: row.task,
        variant: row.variant,
        name: score.name,
        source: score.source,
        mean: rateWithInterval(score.mean, score.interval),
        threshold: formatRate(score.threshold),
        passed: `${score.passed}/${score.n}`,
      }),
    ),
  );
  const judges = (report.judges ?? []).map(judgeRow);
  if (scores.length === 0 && judges.length === 0) return undefined;
  return {
    scores,
    judges,
    judgedTrials: report.judgedTrials ?? [],
    judgeErrors: report.failures.filter((failure) => failure.outcome === 'judge_error'),
  };
}
