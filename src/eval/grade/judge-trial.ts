import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorMessage, FixtureError } from '../../core/errors.js';
import { isRetriedAnswer, modelApiOf } from '../../model-api/retryable-answer.js';
import type { Exchange, FixtureSource } from '../../replay/cassette.js';
import { fixtureProblem, type ProblemContext } from '../../replay/fixture-problem.js';
import { humanLabelOf } from './human-labels.js';
import type { JudgeCheck } from './judge.js';
import {
  type JudgeCassette,
  type JudgmentTape,
  readJudgeCassette,
  writeJudgeCassette,
} from './judge-cassette.js';
import { sendJudgeRequest } from './judge-client.js';
import { DEFAULT_JUDGE_MODEL, JUDGE_ENV, type JudgeModel, parseJudgeModel } from './judge-model.js';
import { buildJudgeRequest, type JudgeMaterial, type JudgeRequest } from './judge-prompt.js';
import { replayJudgeModel } from './judge-replay.js';
import { sampleVerdictOf } from './judge-sample.js';
import { type JudgmentRecord, judgmentOf, type SampleVerdict } from './judgment.js';

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
  /** Live and record: the live API, or the simulator (`--simulated`). */
  source: FixtureSource;
  variant: string;
  trial: number;
  seed: string;
}

export interface JudgeTrialResult {
  judgments: JudgmentRecord[];
  /** The judge cassette is missing or stale: neither a pass nor a fail. */
  problem?: FixtureError;
  /** Recording: why the judge cassette was not written (an API error, a leaked key). */
  unrecorded?: string;
  /** sha256 of the judge cassette replayed or written; undefined when asked live, unrecorded. */
  hash?: string;
}

interface PlannedCheck {
  judge: JudgeCheck;
  models: JudgeModel[];
  samples: number;
}

/** The models and sample count of each check: the flags, else the judge's own, else what was recorded (replay) or the defaults. */
function plan(
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

function toJudgment(
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
      ...(planned.judge.humanLabels && { labels: planned.judge.humanLabels.file }),
      ...(human !== undefined && { human }),
    },
    samples,
  );
}

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
        missing ? 'fixture_missing' : 'fixture_corrupt',
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
      const exchange = await sendJudgeRequest(endpoint, request, sleep);
      samples.push(sampleVerdictOf(exchange, model, sample));
      if (recordable(exchange, request)) exchanges.push(exchange);
      else failure ??= samples.at(-1)?.error ?? 'an answer that is not a complete judge answer';
    } catch (error) {
      const message = errorMessage(error);
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

async function askAll(
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
    const upstream = await openJudgeUpstream(planned.judge, options.source);
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
  if (failures.length > 0) {
    return {
      judgments,
      unrecorded: `the judge calls were not recorded, nothing written: ${failures[0]}`,
    };
  }
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
    return { unrecorded: `the judge calls were not recorded: ${errorMessage(error)}` };
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

/** Whether the trial has a judge cassette to replay. */
export const hasJudgeCassette = (file: string) => existsSync(file);
