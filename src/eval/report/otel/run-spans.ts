import type { TrialRecord } from '../../spec/trial-record.js';
import type { TrialTranscript } from '../load-transcripts.js';
import type { EvalReport } from '../report-schema.js';
import { agentSpan } from './agent-spans.js';
import { evaluationEvents } from './evaluation-events.js';
import { judgeSpans } from './judge-spans.js';
import { OURS, type PlanAttributes, type SpanPlan, span } from './span-plan.js';

export interface RunSpanInput {
  report: Pick<EvalReport, 'gate' | 'trials' | 'suites' | 'models'>;
  /** Each trial with its transcript, in the report's order. */
  trials: ReadonlyArray<{ record: TrialRecord; transcript: TrialTranscript }>;
  /** When the run started: every trial's spans start there (trials run side by side). */
  startedAt: Date;
  /** When the run ended; the run span lasts at least until its longest trial's end. */
  endedAt: Date;
  content: boolean;
  /** `--shard i/n`: this file holds one slice of the run. */
  shard?: string;
}

/** How a trial ended as the test conventions say it: pass or fail (not counted ones fail too). */
function resultStatus(record: TrialRecord): 'pass' | 'fail' {
  return record.outcome === 'passed' ? 'pass' : 'fail';
}

function trialAttributes(record: TrialRecord): PlanAttributes {
  const caseName = [record.task, record.variant, ...(record.case ? [record.case] : [])].join('/');
  return {
    'test.suite.name': record.suite,
    'test.case.name': caseName,
    'test.case.result.status': resultStatus(record),
    [`${OURS}.suite`]: record.suite,
    [`${OURS}.task`]: record.task,
    [`${OURS}.variant`]: record.variant,
    ...(record.case !== undefined && { [`${OURS}.case`]: record.case }),
    [`${OURS}.trial`]: record.trial,
    [`${OURS}.outcome`]: record.outcome,
  };
}

/** What every span of a replayed trial says: it is replayed, from which cassette, recorded when. */
function replayAttributes(record: TrialRecord): PlanAttributes {
  return {
    [`${OURS}.replayed`]: true,
    ...(record.source && { [`${OURS}.fixture_source`]: record.source }),
    ...(record.cassetteHash && { [`${OURS}.cassette_hash`]: record.cassetteHash }),
    ...(record.recordedAt && { [`${OURS}.recorded_at`]: record.recordedAt }),
  };
}

/**
 * A trial's span (the test case) over its agent's span and its judges' calls; its results as
 * evaluation events.
 */
export function trialSpan(
  record: TrialRecord,
  transcript: TrialTranscript,
  options: { startMs: number; content: boolean },
): SpanPlan {
  const ran = record.outcome !== 'stale' && record.outcome !== 'missing';
  const common = replayAttributes(record);
  const agent = ran
    ? agentSpan(record, 'transcript' in transcript ? transcript.transcript : undefined, {
        startMs: options.startMs,
        content: options.content,
        common,
      })
    : undefined;
  const judges = judgeSpans(record.judgments ?? [], agent?.endMs ?? options.startMs, common);
  const endMs = judges.at(-1)?.endMs ?? agent?.endMs ?? options.startMs;
  const events = evaluationEvents(record, endMs, options.content);
  // The results belong to the operation they evaluate: the agent's run, when there is one.
  if (agent) agent.events.push(...events);
  const failed = !['passed', 'failed'].includes(record.outcome);
  const unread = 'unavailable' in transcript ? transcript.unavailable : undefined;
  return span({
    name: `trial ${record.task} ${record.variant}${record.case ? ` ${record.case}` : ''} #${record.trial}`,
    startMs: options.startMs,
    endMs,
    attributes: {
      ...trialAttributes(record),
      ...(record.fixture && { [`${OURS}.fixture`]: record.fixture }),
      ...(unread && ran && { [`${OURS}.transcript_unavailable`]: unread }),
      ...common,
    },
    events: agent ? [] : events,
    ...(failed && {
      error: `${record.outcome}${record.staleCassette ? ` (${record.staleCassette} cassette)` : ''}`,
    }),
    children: [...(agent ? [agent] : []), ...judges],
  });
}

/** The run's span over one span per trial: the whole export of `eval --otel`. */
export function runSpan(input: RunSpanInput): SpanPlan {
  const startMs = input.startedAt.getTime();
  const children = input.trials.map(({ record, transcript }) =>
    trialSpan(record, transcript, { startMs, content: input.content }),
  );
  const endMs = Math.max(input.endedAt.getTime(), ...children.map((child) => child.endMs));
  const { gate } = input.report;
  return span({
    name: input.shard ? `eval shard ${input.shard}` : 'eval',
    startMs,
    endMs,
    attributes: {
      // A slice has no gate of its own: the merge decides.
      ...(!input.shard && {
        'test.suite.run.status': gate.passed ? 'success' : 'failure',
        [`${OURS}.gate.passed`]: gate.passed,
      }),
      [`${OURS}.trials`]: input.report.trials,
      [`${OURS}.trial_count`]: input.trials.length,
      [`${OURS}.suites`]: input.report.suites,
      [`${OURS}.models`]: input.report.models,
      ...(input.shard && { [`${OURS}.shard`]: input.shard }),
    },
    children,
  });
}
