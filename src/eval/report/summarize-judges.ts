import type { FixtureSource } from '../../replay/cassette.js';
import { type JudgmentRecord, modelVerdict, reasoningOf, samplePasses } from '../spec/judgment.js';
import type { TrialRecord } from '../spec/trial-record.js';
import {
  bootstrapStatistic,
  cohenKappa,
  countsOf,
  fleissKappa,
  flipRate,
} from '../stats/agreement.js';
import { nearestRank } from '../stats/metrics.js';
import { wilsonInterval } from '../stats/wilson.js';
import type { Calibration, JudgedTrial, JudgeSummary } from './grader-schema.js';
import { compareNames } from './order.js';
import { redactForReport } from './redact.js';
import { byTrial } from './trial-lists.js';

const LABELS = ['pass', 'fail'];

/**
 * Subjects in one order whatever order the trials came in (a run, or shards merged): the seeded
 * bootstrap draws by position, so a figure would otherwise depend on how the run was split.
 */
function canonical<Subject extends readonly string[]>(subjects: readonly Subject[]): Subject[] {
  const key = (subject: Subject) => subject.join('\u0000');
  return [...subjects].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Agreement across judge models, over the trials every model gave a verdict on. */
function kappaOf(judgments: readonly JudgmentRecord[], models: readonly string[]) {
  if (models.length < 2) return null;
  const subjects = canonical(
    judgments.flatMap((judgment) => {
      const verdicts = models.map((model) => modelVerdict(judgment, model));
      return verdicts.every((verdict) => verdict !== undefined) ? [verdicts as string[]] : [];
    }),
  );
  if (models.length === 2) {
    const kappa = (sample: readonly string[][]) =>
      cohenKappa(sample.map(([left, right]) => [left!, right!] as const));
    return {
      method: 'cohen' as const,
      value: kappa(subjects),
      interval: bootstrapStatistic(subjects, kappa),
      trials: subjects.length,
    };
  }
  const kappa = (sample: readonly string[][]) =>
    fleissKappa(sample.map((labels) => countsOf(labels, LABELS)));
  return {
    method: 'fleiss' as const,
    value: kappa(subjects),
    interval: bootstrapStatistic(subjects, kappa),
    trials: subjects.length,
  };
}

/** The majority verdict against the human label, over the labelled trials with a verdict. */
function calibrationOf(judgments: readonly JudgmentRecord[]): Calibration | null {
  const file = judgments.find((judgment) => judgment.labels !== undefined)?.labels;
  if (file === undefined) return null;
  const labelled = judgments.filter((judgment) => judgment.human !== undefined);
  return calibrationFrom(
    file,
    labelled.map((judgment) => ({ verdict: judgment.verdict, human: judgment.human! })),
  );
}

/**
 * The judge's verdicts against the human labels of the same trials (`labelled`: one entry per
 * labelled trial): agreement with its Wilson interval, and Cohen's κ with a bootstrap interval.
 * A trial whose judge erred is labelled but not compared.
 */
export function calibrationFrom(
  file: string,
  labelled: ReadonlyArray<{ verdict: 'pass' | 'fail' | 'error'; human: 'pass' | 'fail' }>,
): Calibration {
  const pairs = canonical(
    labelled.flatMap(({ verdict, human }) =>
      verdict === 'error' ? [] : [[verdict, human] as const],
    ),
  );
  const agree = pairs.filter(([judge, human]) => judge === human).length;
  return {
    file,
    labelled: labelled.length,
    compared: pairs.length,
    agree,
    accuracy: pairs.length > 0 ? agree / pairs.length : null,
    accuracyInterval: wilsonInterval(pairs.length, agree) ?? null,
    kappa: cohenKappa(pairs),
    kappaInterval: bootstrapStatistic(pairs, cohenKappa),
  };
}

function callsOf(judgments: readonly JudgmentRecord[]): JudgeSummary['calls'] {
  const samples = judgments.flatMap((judgment) =>
    judgment.samples.map((sample) => ({ sample, calls: judgment.calls })),
  );
  const live = samples.filter(({ calls }) => calls !== 'replayed').map(({ sample }) => sample);
  const latencies = live.flatMap((sample) =>
    sample.latencyMs === undefined ? [] : [sample.latencyMs],
  );
  const sources = new Set(judgments.flatMap((judgment) => judgment.source ?? []));
  return {
    replayed: samples.filter(({ calls }) => calls === 'replayed').length,
    live: samples.filter(({ calls }) => calls === 'live').length,
    recorded: samples.filter(({ calls }) => calls === 'recorded').length,
    sources: [...sources].sort() as FixtureSource[],
    liveInputTokens: live.reduce((sum, sample) => sum + (sample.inputTokens ?? 0), 0),
    liveOutputTokens: live.reduce((sum, sample) => sum + (sample.outputTokens ?? 0), 0),
    liveLatencyMs: {
      p50: nearestRank(latencies, 50) ?? null,
      p95: nearestRank(latencies, 95) ?? null,
    },
  };
}

function flipOf(groups: ReadonlyArray<readonly string[]>) {
  const rate = flipRate(groups);
  const pairs = groups.filter((group) => group.length >= 2).length;
  const flipped = rate === null ? 0 : Math.round(rate * pairs);
  return {
    flipRate: rate,
    flipPairs: pairs,
    flipInterval: rate === null ? null : (wilsonInterval(pairs, flipped) ?? null),
  };
}

function summarizeCheck(suite: string, task: string, judgments: JudgmentRecord[]): JudgeSummary {
  const models = [...new Set(judgments.flatMap((judgment) => judgment.models))].sort(compareNames);
  const groups = judgments.flatMap((judgment) =>
    models.map((model) =>
      judgment.samples
        .filter((sample) => sample.model === model && sample.error === undefined)
        .map((sample) => (samplePasses(sample, judgment.threshold) ? 'pass' : 'fail')),
    ),
  );
  const count = (verdict: JudgmentRecord['verdict']) =>
    judgments.filter((judgment) => judgment.verdict === verdict).length;
  const scripts = [...new Set(judgments.flatMap((judgment) => judgment.script ?? []))].sort();
  return {
    suite,
    task,
    check: judgments[0]!.check,
    models,
    ...(scripts.length > 0 && { script: scripts.join(', ') }),
    samples: Math.max(0, ...groups.map((group) => group.length)),
    trials: judgments.length,
    verdicts: { pass: count('pass'), fail: count('fail'), error: count('error') },
    ...flipOf(groups),
    kappa: kappaOf(judgments, models),
    calibration: calibrationOf(judgments),
    calls: callsOf(judgments),
  };
}

/**
 * Per (suite, task, judged check), over every variant and every trial that was judged: the
 * judge's reliability, apart from the agent's scores. Undefined when nothing was judged.
 */
export function summarizeJudges(records: readonly TrialRecord[]): JudgeSummary[] | undefined {
  const groups = new Map<string, { suite: string; task: string; judgments: JudgmentRecord[] }>();
  for (const record of records) {
    for (const judgment of record.judgments ?? []) {
      const key = JSON.stringify([record.suite, record.task, judgment.check]);
      const group = groups.get(key) ?? { suite: record.suite, task: record.task, judgments: [] };
      group.judgments.push(judgment);
      groups.set(key, group);
    }
  }
  if (groups.size === 0) return undefined;
  return [...groups.values()]
    .sort(
      (a, b) =>
        compareNames(a.suite, b.suite) ||
        compareNames(a.task, b.task) ||
        compareNames(a.judgments[0]!.check, b.judgments[0]!.check),
    )
    .map((group) => summarizeCheck(group.suite, group.task, group.judgments));
}

/** Every judged check of every trial, in trial order; undefined when nothing was judged. */
export function listJudgedTrials(records: readonly TrialRecord[]): JudgedTrial[] | undefined {
  const judged = [...records].sort(byTrial).flatMap((record) =>
    (record.judgments ?? []).map((judgment): JudgedTrial => {
      const errors = judgment.samples.flatMap((sample) =>
        sample.error === undefined
          ? []
          : [redactForReport(`${sample.model} sample ${sample.sample}: ${sample.error}`)],
      );
      const reasoning = reasoningOf(judgment);
      return {
        suite: record.suite,
        task: record.task,
        variant: record.variant,
        trial: record.trial,
        check: judgment.check,
        verdict: judgment.verdict,
        score: judgment.score,
        votes: judgment.votes,
        calls: judgment.calls,
        ...(judgment.source !== undefined && { source: judgment.source }),
        ...(judgment.human !== undefined && { human: judgment.human }),
        ...(reasoning !== undefined && { reasoning: redactForReport(reasoning) }),
        ...(errors.length > 0 && { errors }),
      };
    }),
  );
  return judged.length > 0 ? judged : undefined;
}
