import { FixtureError } from '../../core/errors.js';
import { fixtureProblem } from '../../replay/fixture-problem.js';
import type { JudgeCheck } from '../spec/judge.js';
import { askAll } from './judge-ask.js';
import { type JudgeCassette, readJudgeCassette } from './judge-cassette.js';
import { type JudgeTrialOptions, type JudgeTrialResult, plan, toJudgment } from './judge-plan.js';
import { buildJudgeRequest, type JudgeMaterial } from './judge-prompt.js';
import { replayJudgeModel } from './judge-replay.js';

export type { JudgeMode, JudgeTrialOptions, JudgeTrialResult } from './judge-plan.js';

function replayAll(
  judges: readonly JudgeCheck[],
  material: JudgeMaterial,
  options: JudgeTrialOptions,
): JudgeTrialResult {
  let cassette: JudgeCassette;
  let hash: string;
  try {
    ({ cassette, hash } = readJudgeCassette(options.context.file));
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    const missing = error.code === 'fixture_missing';
    const detail = missing ? 'the judge calls of this trial were never recorded' : error.message;
    return {
      judgments: [],
      problem: fixtureProblem(
        missing || error.code === 'fixture_secret' || error.code === 'fixture_edited'
          ? error.code
          : 'fixture_corrupt',
        options.context,
        detail,
      ),
    };
  }
  try {
    const judgments = plan(judges, options, cassette).map((planned) => {
      const samples = planned.models.flatMap((model) =>
        replayJudgeModel(cassette, options.context, {
          request: buildJudgeRequest(planned.judge, material, model),
          model,
          samples: planned.samples,
        }),
      );
      return toJudgment(planned, samples, options, 'replayed', cassette.meta.source);
    });
    return { judgments, hash };
  } catch (error) {
    if (error instanceof FixtureError) return { judgments: [], problem: error };
    throw error;
  }
}

/**
 * Every judged check of one trial: replayed from `trial-<n>.judge.json`, asked live
 * (`eval --rescore`, nothing written), or recorded (`record`, `--judge-only`, `--record-judge`).
 * Checks run one after another, models in order, samples in order, so a recording is stable.
 */
export async function judgeTrial(
  judges: readonly JudgeCheck[],
  material: JudgeMaterial,
  options: JudgeTrialOptions,
): Promise<JudgeTrialResult> {
  if (judges.length === 0) return { judgments: [] };
  if (options.mode === 'replay') return replayAll(judges, material, options);
  return askAll(judges, material, options);
}
