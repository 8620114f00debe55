import { createRealClock } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import { isRetriedAnswer, modelApiOf } from '../../model-api/retryable-answer.js';
import type { Exchange } from '../../replay/cassette.js';
import type { JudgeCheck } from '../spec/judge.js';
import { JUDGE_ENV, type JudgeModel } from '../spec/judge-model.js';
import type { JudgmentRecord, SampleVerdict } from '../spec/judgment.js';
import { sendJudgeRequest } from './judge-call.js';
import { type JudgmentTape, writeJudgeCassette } from './judge-cassette.js';
import {
  type JudgeTrialOptions,
  type JudgeTrialResult,
  type PlannedCheck,
  plan,
  toJudgment,
} from './judge-plan.js';
import { buildJudgeRequest, type JudgeMaterial, type JudgeRequest } from './judge-prompt.js';
import { sampleVerdictOf } from './judge-sample.js';

/** An answer worth keeping in a cassette: a complete answer the judge gave (verdict or not). */
function recordable(exchange: Exchange, request: JudgeRequest): boolean {
  const { response } = exchange;
  if (response.status < 200 || response.status >= 300 || 'events' in response) return false;
  return !isRetriedAnswer({
    status: response.status,
    shouldRetry: null,
    api: modelApiOf('POST', request.path),
    cut: false,
    stream: false,
    body: response.body,
  });
}

async function askModel(
  upstream: Awaited<ReturnType<typeof import('./judge-upstream.js').openJudgeUpstream>>,
  planned: PlannedCheck,
  model: JudgeModel,
  request: JudgeRequest,
  options: JudgeTrialOptions,
): Promise<{ samples: SampleVerdict[]; tape?: JudgmentTape; failure?: string; host?: string }> {
  const samples: SampleVerdict[] = [];
  const exchanges: Exchange[] = [];
  let failure: string | undefined;
  let host: string | undefined;
  for (let sample = 1; sample <= planned.samples; sample += 1) {
    const seed = `${options.seed}/judge/${planned.judge.name}/${model.id}/${sample}`;
    try {
      const endpoint = upstream.endpoint(model, seed);
      host ??= new URL(endpoint.baseURL).host;
      const exchange = await sendJudgeRequest(endpoint, request, createRealClock());
      const verdict = sampleVerdictOf(exchange, model, sample);
      // Only verdicts are kept: a cassette of judge errors would replay as judge errors.
      if (verdict.error === undefined && recordable(exchange, request)) {
        samples.push(verdict);
        exchanges.push(exchange);
        continue;
      }
      const error = upstream.problem(seed) ?? verdict.error;
      samples.push(error === undefined ? verdict : { ...verdict, error });
      failure ??= error ?? 'an answer that is not a complete judge answer';
    } catch (error) {
      // The judge script's own reason (it looped past the deadline) before the call's.
      const message = upstream.problem(seed) ?? errorMessage(error);
      samples.push({ model: model.id, sample, error: message });
      failure ??= message;
    }
  }
  const { rubricHash, promptHash, key } = request;
  const tape = failure
    ? undefined
    : {
        check: planned.judge.name,
        model: model.id,
        key,
        rubricHash,
        promptHash,
        samples: exchanges,
      };
  return { samples, ...(tape && { tape }), ...(failure && { failure }), ...(host && { host }) };
}

/** Every judged check of a trial asked live (and, recording, written to its judge cassette). */
export async function askAll(
  judges: readonly JudgeCheck[],
  material: JudgeMaterial,
  options: JudgeTrialOptions,
): Promise<JudgeTrialResult> {
  // Loaded only when judging live or recording: a replay never starts a simulator.
  const { openJudgeUpstream } = await import('./judge-upstream.js');
  const judgments: JudgmentRecord[] = [];
  const tapes: JudgmentTape[] = [];
  const failures: string[] = [];
  let host: string | undefined;
  for (const planned of plan(judges, options, undefined)) {
    let upstream: Awaited<ReturnType<typeof openJudgeUpstream>>;
    try {
      upstream = await openJudgeUpstream(planned.judge, options.source, options.scriptOnly);
    } catch (error) {
      // Recording: no judge script for --judge-script, no simulator; nothing asked, nothing written.
      if (options.mode !== 'record') throw error;
      return { judgments, unrecorded: errorMessage(error) };
    }
    try {
      const samples: SampleVerdict[] = [];
      for (const model of planned.models) {
        const request = buildJudgeRequest(planned.judge, material, model);
        const asked = await askModel(upstream, planned, model, request, options);
        host ??= asked.host;
        samples.push(...asked.samples);
        if (asked.tape) tapes.push(asked.tape);
        if (asked.failure)
          failures.push(`judge '${planned.judge.name}' (${model.id}): ${asked.failure}`);
      }
      const calls = options.mode === 'record' ? 'recorded' : 'live';
      judgments.push(toJudgment(planned, samples, options, calls, options.source));
    } finally {
      await upstream.close();
    }
  }
  if (options.mode !== 'record') return { judgments };
  const [failure] = failures;
  if (failure !== undefined) return { judgments, unrecorded: failure };
  return { judgments, ...(await writeTapes(tapes, options, host ?? 'unknown')) };
}

async function writeTapes(
  judgments: JudgmentTape[],
  options: JudgeTrialOptions,
  host: string,
): Promise<Pick<JudgeTrialResult, 'unrecorded' | 'hash'>> {
  const { label, file } = options.context;
  try {
    const hash = await writeJudgeCassette(
      file,
      {
        version: 1,
        kind: 'judge',
        meta: {
          ...(label.suite !== undefined && { suite: label.suite }),
          task: label.task,
          variant: label.variant,
          trial: label.trial,
          ...(label.case !== undefined && { case: label.case }),
          recordedAt: new Date().toISOString(),
          source: options.source,
          host,
        },
        judgments,
      },
      [JUDGE_ENV.apiKey, 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'].flatMap(
        (name) => process.env[name] || [],
      ),
    );
    return { hash };
  } catch (error) {
    return { unrecorded: errorMessage(error) };
  }
}
