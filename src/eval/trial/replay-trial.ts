import { createVirtualClock, type VirtualClock } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import type { Cassette } from '../../replay/cassette.js';
import { cassetteHash } from '../../replay/cassette-hash.js';
import { networkRefusalIn } from '../../replay/network-guard.js';
import type { ReplayResult } from '../../replay/replay-session.js';
import type { RunResult } from '../../runtime/run-agent.js';
import { chosenModel } from '../spec/model-choice.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { trialTranscript } from '../transcript/transcript-formats.js';
import { replayRefusingNetwork, sharedRecordServer } from './replay-runtime.js';
import { rerecordCommand } from './rerecord.js';
import type { TrialDriver, TrialRequest } from './trial-driver.js';
import { finishedTrial, type TrialResult } from './trial-result.js';

/**
 * Replay the trial's own cassette (`file`) through its driver, on a virtual clock started at
 * the recording's "now" that advances by each exchange's recorded latency.
 */
export async function replayTrial(
  request: TrialRequest,
  driver: TrialDriver,
  base: TrialRecord,
  file: string,
): Promise<TrialResult> {
  const { task, variant, trial, settings, testCase } = request;
  let clock: VirtualClock | undefined;
  let replayedHash: string | undefined;
  let replayedCassette: Cassette | undefined;
  // A replay run refuses the network while its trials run; a recording run (which replays
  // the trials it keeps, --missing-only) and one that asks its judges live (--rescore) have
  // msw listening instead: another trial's judge call must not meet this trial's refusal.
  const live = settings.mode === 'record' || settings.judge.mode !== 'replay';
  const replay: typeof replayRefusingNetwork = live
    ? (await sharedRecordServer()).replay
    : replayRefusingNetwork;
  const replayed = await replay(
    {
      file,
      label: { suite: task.agent.suite, task: task.id, variant, trial, case: testCase?.id },
      matching: settings.matching,
      // One read of the cassette: its source decides whether the command needs --simulated.
      rerecordCommand: (meta) =>
        rerecordCommand(
          { task: task.id, variant, trial, case: testCase?.id },
          meta?.source === 'simulator',
        ),
      // Replay costs no wall time but reports the recorded model latency.
      onExchange: (exchange) => clock?.advance(exchange.latencyMs),
    },
    async (session) => {
      replayedHash = cassetteHash(session.cassette);
      replayedCassette = session.cassette;
      const first = session.cassette.exchanges[0]?.response;
      clock = createVirtualClock({ start: Date.parse(session.cassette.meta.now) });
      return driver.drive({
        fetch: session.fetch,
        baseURL: session.baseURL,
        apiKey: 'replay-without-key',
        modelId: chosenModel(settings.models, task.agent.suite) ?? session.cassette.meta.model,
        clock,
        stream: first !== undefined && 'events' in first,
      });
    },
  );
  // Where the replayed answers came from, failed and stale trials too: the report's header names it.
  const provenance: Partial<TrialRecord> = {
    ...(replayed.meta && {
      source: replayed.meta.source,
      provider: replayed.meta.provider ?? driver.provider,
      model: replayed.meta.model,
      recordedAt: replayed.meta.recordedAt,
      host: replayed.meta.host,
    }),
    ...(replayedHash !== undefined && { cassetteHash: replayedHash }),
  };
  const unfinished = unfinishedReplay({ ...base, ...provenance }, replayed);
  if (unfinished) return unfinished;
  const finished = finishedTrial(base, replayed.value!, replayed.latenciesMs, provenance);
  if (replayedCassette) {
    try {
      finished.transcript = trialTranscript(replayedCassette, driver.traceEvents?.() ?? []);
    } catch {
      // The report's transcript, not the trial: the reporter reads the files instead and says
      // why it is unavailable.
    }
  }
  return finished;
}

/** A replay that did not give a run: refused network, stale or missing fixture, or an error. */
function unfinishedReplay(
  record: TrialRecord,
  replayed: ReplayResult<RunResult>,
): TrialResult | undefined {
  // The run reached for the network: that is the fault, not the exchanges it left unused.
  const refused = networkRefusalIn(replayed.error);
  if (refused) return { record: { ...record, messages: [refused.message] }, error: refused };
  if (replayed.problem) {
    const { code } = replayed.problem;
    const outcome = code === 'fixture_missing' ? 'missing' : 'stale';
    const fixtureProblem =
      code === 'fixture_corrupt' ? 'corrupt' : code === 'fixture_secret' ? 'secret' : undefined;
    return {
      record: {
        ...record,
        outcome,
        ...(fixtureProblem && { fixtureProblem }),
        messages: [replayed.problem.message],
      },
    };
  }
  if (replayed.error !== undefined || !replayed.value) {
    const message = errorMessage(replayed.error);
    return { record: { ...record, messages: [message] }, error: replayed.error };
  }
  return undefined;
}
