import { fixtureProblem, type ProblemContext } from '../../replay/fixture-problem.js';
import { createReplayCursor } from '../../replay/replay-cursor.js';
import type { JudgeModel } from '../spec/judge-model.js';
import type { SampleVerdict } from '../spec/judgment.js';
import { tapedJudgeRequest } from './judge-call.js';
import type { JudgeCassette, JudgmentTape } from './judge-cassette.js';
import type { JudgeRequest } from './judge-prompt.js';
import { sampleVerdictOf } from './judge-sample.js';

const short = (hash: string) => hash.slice(0, 12);

/** Why a recording of this check does not answer the request: what changed, in words. */
function keyChange(tape: JudgmentTape, request: JudgeRequest): string {
  const changed = [
    tape.rubricHash !== request.rubricHash &&
      `its rubric changed (sha256 ${short(tape.rubricHash)} -> ${short(request.rubricHash)})`,
    tape.promptHash !== request.promptHash &&
      `its judge prompt or options changed (sha256 ${short(tape.promptHash)} -> ${short(request.promptHash)})`,
  ].filter(Boolean);
  return changed.length > 0
    ? changed.join(' and ')
    : `its key changed (${short(tape.key)} -> ${short(request.key)})`;
}

/**
 * The recorded verdicts of one judge model for one check of a trial, looked up by the check,
 * the model and the key (sha256 of rubric, judge prompt and model). A check or model the
 * cassette has no recording of, or fewer samples than asked, is missing; a recording under
 * another key (the rubric or the judge prompt changed) or of another request (the agent's
 * answer changed) is stale, naming what changed. Throws the FixtureError; never a verdict.
 */
export function replayJudgeModel(
  cassette: JudgeCassette,
  context: ProblemContext,
  options: { request: JudgeRequest; model: JudgeModel; samples: number },
): SampleVerdict[] {
  const { request, model, samples } = options;
  const check = `judge '${request.check}'`;
  const ofCheck = cassette.judgments.filter((tape) => tape.check === request.check);
  const tape = ofCheck.find((entry) => entry.model === model.id);
  if (!tape) {
    if (ofCheck.length === 0) {
      throw fixtureProblem('fixture_missing', context, `no recording of ${check}`);
    }
    const recorded = ofCheck.map((entry) => entry.model).join(', ');
    throw fixtureProblem(
      'fixture_stale',
      context,
      `${check} was recorded with judge model ${recorded}; this run asks ${model.id}`,
    );
  }
  if (tape.key !== request.key) {
    throw fixtureProblem(
      'fixture_stale',
      context,
      `${check} (${model.id}): ${keyChange(tape, request)}`,
    );
  }
  if (tape.samples.length < samples) {
    throw fixtureProblem(
      'fixture_missing',
      context,
      `${check} (${model.id}) holds ${tape.samples.length} sample${tape.samples.length === 1 ? '' : 's'}; this run asks ${samples} (--judge-samples)`,
    );
  }
  // Served as an agent's calls are: the replay cursor, strict, each sample's request compared.
  const cursor = createReplayCursor({
    ...context,
    cassette: { exchanges: tape.samples.slice(0, samples) },
    matching: 'strict',
    normalisers: [],
    exchangeName: (index) => `${check} (${model.id}) sample ${index + 1}`,
  });
  const live = tapedJudgeRequest(request);
  return Array.from({ length: samples }, (_, index) => {
    const served = cursor.take(live);
    if ('problem' in served) throw served.problem;
    return sampleVerdictOf(served.exchange, model, index + 1);
  });
}
