import type { FixtureError } from '../../core/errors.js';
import type { FixtureSource } from '../../replay/cassette.js';
import type { ProblemContext } from '../../replay/fixture-problem.js';
import { humanLabelOf } from '../spec/human-labels.js';
import type { JudgeCheck } from '../spec/judge.js';
import { DEFAULT_JUDGE_MODEL, type JudgeModel, parseJudgeModel } from '../spec/judge-model.js';
import { type JudgmentRecord, judgmentOf, type SampleVerdict } from '../spec/judgment.js';
import type { JudgeCassette } from './judge-cassette.js';

/** How a trial's judge calls are had: replayed from its judge cassette, asked live, or recorded. */
export type JudgeMode = 'replay' | 'live' | 'record';

export interface JudgeTrialOptions {
  mode: JudgeMode;
  /** The trial's judge cassette, `trial-<n>.judge.json`. */
  context: ProblemContext;
  /** `--judge-model`: overrides every judge's own models. */
  models: readonly JudgeModel[] | undefined;
  /** `--judge-samples`: overrides every judge's own sample count. */
  samples: number | undefined;
  /** Live and record: the live API, or the simulator (`--simulated`, `--judge-simulated`). */
  source: FixtureSource;
  /** `record --judge-script`: only a judge's own script answers it; a judge without one is not recorded. */
  scriptOnly?: boolean;
  variant: string;
  trial: number;
  seed: string;
}

export interface JudgeTrialResult {
  judgments: JudgmentRecord[];
  /** The judge cassette is missing or stale: neither a pass nor a fail. */
  problem?: FixtureError;
  /** Recording: why the judge cassette was not written (an API error, no verdict, a leaked key); nothing was. */
  unrecorded?: string;
  /** sha256 of the judge cassette replayed or written; undefined when asked live, unrecorded. */
  hash?: string;
}

export interface PlannedCheck {
  judge: JudgeCheck;
  models: JudgeModel[];
  samples: number;
}

/** The models and sample count of each check: the flags, else the judge's own, else what was recorded (replay) or the defaults. */
export function plan(
  judges: readonly JudgeCheck[],
  options: JudgeTrialOptions,
  cassette: JudgeCassette | undefined,
): PlannedCheck[] {
  return judges.map((judge) => {
    const tapes = cassette?.judgments.filter((tape) => tape.check === judge.name) ?? [];
    const recorded = [...new Set(tapes.map((tape) => tape.model))].map((id) =>
      parseJudgeModel(id, `${options.context.file}: judge '${judge.name}'`),
    );
    const models =
      options.models ??
      judge.models ??
      (recorded.length > 0 ? recorded : [parseJudgeModel(DEFAULT_JUDGE_MODEL, 'default')]);
    const fewest = tapes.length > 0 ? Math.min(...tapes.map((tape) => tape.samples.length)) : 1;
    return { judge, models: [...models], samples: options.samples ?? judge.samples ?? fewest };
  });
}

export function toJudgment(
  planned: PlannedCheck,
  samples: readonly SampleVerdict[],
  options: JudgeTrialOptions,
  calls: JudgmentRecord['calls'],
  source: FixtureSource | undefined,
): JudgmentRecord {
  const human = humanLabelOf(planned.judge.humanLabels, options.variant, options.trial);
  return judgmentOf(
    {
      check: planned.judge.name,
      threshold: planned.judge.threshold,
      models: planned.models.map((model) => model.id),
      calls,
      ...(source !== undefined && { source }),
      // Offline, a judge with its own script is answered by it, not by the built-in judge.
      ...(source === 'simulator' &&
        planned.judge.modelScript && { script: planned.judge.modelScript.name }),
      ...(planned.judge.humanLabels && { labels: planned.judge.humanLabels.file }),
      ...(human !== undefined && { human }),
    },
    samples,
  );
}
