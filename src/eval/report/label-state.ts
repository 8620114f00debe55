import { type HumanLabel, labelStanding } from '../spec/human-labels.js';
import type { Calibration } from './grader-schema.js';
import { calibrationText } from './graders-model.js';
import type { EvalReport } from './report-schema.js';
import { calibrationFrom } from './summarize-judges.js';

/** A human's label of one judged check of one trial, and whether it still describes the trial. */
export type ShownLabel = Omit<HumanLabel, 'variant' | 'trial'> & {
  standing: 'current' | 'stale' | 'unkeyed';
};

/** One judged check of one recorded trial that a person can label. */
export interface LabelItem {
  suite: string;
  task: string;
  variant: string;
  trial: number;
  check: string;
  /** The human-labels file the check's judge reads (`humanLabels` of defineJudge). */
  file: string;
  /** The content hash of the cassette the trial replayed: what a label is keyed by. */
  cassette: string;
  verdict: 'pass' | 'fail' | 'error';
  score: number | null;
  reasoning?: string;
  human?: ShownLabel;
}

/** A judged check's calibration against the labels as they stand now. */
export interface LabelCheck {
  suite: string;
  task: string;
  check: string;
  file: string;
  /** Labels of this run's trials that name a cassette the trial no longer replays. */
  stale: number;
  calibration: Calibration;
  /** "9/10 agree = 0.90 [0.60, 0.98]; κ 0.80 [+0.40, +1.00]", as the report says it. */
  text: string;
}

export interface LabelState {
  items: LabelItem[];
  checks: LabelCheck[];
}

const keyOf = (...parts: ReadonlyArray<string | number>) => JSON.stringify(parts);

/** The labelling targets of a run: its judged checks whose judge names a human-labels file. */
export function labelFiles(report: EvalReport): Map<string, string> {
  const files = new Map<string, string>();
  for (const judge of report.judges ?? []) {
    if (judge.calibration)
      files.set(keyOf(judge.suite, judge.task, judge.check), judge.calibration.file);
  }
  return files;
}

/**
 * What the labelling view shows: every judged check of every recorded trial whose judge reads
 * a human-labels file, with its label (`labelsOf(file)` gives the file's entries), and each
 * check's calibration recomputed from those labels. A stale label is shown, never compared.
 */
export function labelState(
  report: EvalReport,
  labelsOf: (file: string) => readonly HumanLabel[],
): LabelState {
  const files = labelFiles(report);
  const hashes = new Map(
    report.trialProvenance.flatMap((trial) =>
      trial.cassetteHash === undefined || trial.case !== undefined
        ? []
        : [[keyOf(trial.suite, trial.task, trial.variant, trial.trial), trial.cassetteHash]],
    ),
  );
  const items = (report.judgedTrials ?? []).flatMap((judged): LabelItem[] => {
    const file = files.get(keyOf(judged.suite, judged.task, judged.check));
    const cassette = hashes.get(keyOf(judged.suite, judged.task, judged.variant, judged.trial));
    if (file === undefined || cassette === undefined) return [];
    const entry = labelsOf(file).find(
      (label) => label.variant === judged.variant && label.trial === judged.trial,
    );
    return [
      {
        suite: judged.suite,
        task: judged.task,
        variant: judged.variant,
        trial: judged.trial,
        check: judged.check,
        file,
        cassette,
        verdict: judged.verdict,
        score: judged.score,
        ...(judged.reasoning !== undefined && { reasoning: judged.reasoning }),
        ...(entry && { human: shownLabel(entry, cassette) }),
      },
    ];
  });
  return { items, checks: checksOf(report, items) };
}

function shownLabel(entry: HumanLabel, cassette: string): ShownLabel {
  const { variant: _variant, trial: _trial, ...label } = entry;
  return { ...label, standing: labelStanding(entry, cassette) };
}

function checksOf(report: EvalReport, items: readonly LabelItem[]): LabelCheck[] {
  return (report.judges ?? []).flatMap((judge): LabelCheck[] => {
    if (!judge.calibration) return [];
    const mine = items.filter(
      (item) =>
        item.suite === judge.suite && item.task === judge.task && item.check === judge.check,
    );
    const applied = mine.flatMap((item) =>
      item.human && item.human.standing !== 'stale'
        ? [{ verdict: item.verdict, human: item.human.label }]
        : [],
    );
    const calibration = calibrationFrom(judge.calibration.file, applied);
    return [
      {
        suite: judge.suite,
        task: judge.task,
        check: judge.check,
        file: judge.calibration.file,
        stale: mine.filter((item) => item.human?.standing === 'stale').length,
        calibration,
        text: calibrationText(calibration),
      },
    ];
  });
}
