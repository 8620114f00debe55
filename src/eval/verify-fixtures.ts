import { join, relative } from 'node:path';
import { canonicalize } from '../core/canonical-json.js';
import { errorMessage } from '../core/errors.js';
import { type Cassette, type Exchange, isSseResponse } from '../replay/cassette.js';
import { readCassette } from '../replay/cassette-file.js';
import { cassetteHash } from '../replay/cassette-hash.js';
import { respond, SEED_HEADER, UNSCRIPTED_HEADER } from '../simulator/respond.js';
import { inventoryFixtures } from './fixture-inventory.js';
import type { TrialProvenance } from './report/report-schema.js';
import { rerecordCommand } from './rerecord.js';

export interface FixtureVerdict {
  /** Path as shown, e.g. fixtures/T1/upgraded/trial-2.json. */
  fixture: string;
  source?: 'live' | 'simulator';
  /** Empty when the cassette checks out. */
  problems: string[];
  /**
   * A simulator cassette whose responses the built-in policies do not produce (recorded with a
   * project's model script, or in the Chat Completions format): schema and secrets checked,
   * responses not re-derived.
   */
  notRederived?: boolean;
  /** The command that re-records it (from its folder; --simulated for a simulator cassette). */
  rerecordCommand?: string;
}

/** The seed the recorder sends the simulator for a trial (see trial-runner.ts). */
export function simulatorSeed(meta: Pick<Cassette['meta'], 'task' | 'variant' | 'trial'>): string {
  return `${meta.task}/${meta.variant}/${meta.trial}`;
}

const GENERATED_ID = /^(msg|toolu|req)_[A-Za-z0-9]+$/;

/**
 * Ids aside. The simulator derives message and tool-use ids from the request's original key
 * order, which the canonical cassette does not keep, so ids are compared by shape only;
 * every other field (text, tool calls, stop reason, usage) must be equal.
 */
function withoutIds(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(GENERATED_ID, '$1_*');
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutIds(item)]));
  }
  return value;
}

const same = (left: unknown, right: unknown) =>
  JSON.stringify(canonicalize(withoutIds(left))) ===
  JSON.stringify(canonicalize(withoutIds(right)));

/** Marks a cassette the built-in policies cannot re-derive (see FixtureVerdict.notRederived). */
const NOT_DERIVABLE = Symbol('not derivable');

/** The first way a recorded exchange differs from what the simulator answers today. */
function rederiveProblem(
  exchange: Exchange,
  seed: string,
  index: number,
): string | typeof NOT_DERIVABLE | undefined {
  const answer = respond(
    exchange.request.body,
    { 'x-api-key': 'verify', [SEED_HEADER]: seed },
    { unmatched: 'error' },
  );
  // The recording was answered, but no built-in policy answers it (or it is not a Messages
  // request at all): a model script or another wire format made it.
  const foreign =
    answer.headers[UNSCRIPTED_HEADER] !== undefined ||
    (answer.status === 400 && exchange.response.status < 400);
  if (index === 0 && foreign) return NOT_DERIVABLE;
  const at = `exchange ${index + 1}`;
  if (answer.status !== exchange.response.status) {
    return `${at}: the simulator answers status ${answer.status}, the cassette holds ${exchange.response.status}`;
  }
  const recorded = exchange.response;
  if (isSseResponse(recorded)) {
    if (!answer.events) return `${at}: the cassette holds a stream, the simulator answers JSON`;
    return same(recorded.events, answer.events)
      ? undefined
      : `${at}: the streamed response differs from what the simulator derives from the request and seed ${seed}`;
  }
  return same(recorded.body, answer.body)
    ? undefined
    : `${at}: the response differs from what the simulator derives from the request and seed ${seed}`;
}

/**
 * Check one cassette: its schema and a secret scan always; a simulator cassette's every
 * response re-derived from its recorded request and seed (an edited answer or an older
 * simulator shows up here, even in the last response that no later request carries); a
 * live cassette's content hash against the reference report's, when that has one.
 */
export async function verifyCassette(
  file: string,
  options: { shown: string; referenceHash?: string },
): Promise<FixtureVerdict> {
  const problems: string[] = [];
  let cassette: Cassette;
  try {
    cassette = await readCassette(file);
  } catch (error) {
    return { fixture: options.shown, problems: [errorMessage(error)] };
  }
  // readCassette has already refused a cassette holding a credential (fixture_secret).
  const { meta } = cassette;
  if (meta.source === 'simulator') {
    const seed = simulatorSeed(meta);
    for (const [index, exchange] of cassette.exchanges.entries()) {
      const problem = rederiveProblem(exchange, seed, index);
      if (problem === NOT_DERIVABLE) {
        return { fixture: options.shown, source: meta.source, problems, notRederived: true };
      }
      if (problem) {
        problems.push(problem);
        break;
      }
    }
  } else if (options.referenceHash && options.referenceHash !== cassetteHash(cassette)) {
    problems.push(
      'its content hash is not the one reports/reference.json replayed: edited, or re-recorded without updating the reference (npm run eval -- --update-reference)',
    );
  }
  return { fixture: options.shown, source: meta.source, problems };
}

/** Verify every cassette under `fixtures/` (optionally only some tasks). */
export async function verifyFixtures(options: {
  projectDir: string;
  tasks?: readonly string[];
  reference?: readonly TrialProvenance[];
}): Promise<FixtureVerdict[]> {
  const fixturesDir = join(options.projectDir, 'fixtures');
  const tasks = options.tasks?.map((task) => task.toUpperCase());
  const hashes = new Map(
    (options.reference ?? []).map((trial) => [
      `${trial.task}/${trial.variant}/${trial.trial}`,
      trial.cassetteHash,
    ]),
  );
  const verdicts: FixtureVerdict[] = [];
  for (const [folder, trials] of inventoryFixtures(fixturesDir)) {
    const [task = '', variant = ''] = folder.split('/');
    if (tasks && !tasks.includes(task.toUpperCase())) continue;
    for (const trial of trials) {
      const file = join(fixturesDir, folder, `trial-${trial}.json`);
      const referenceHash = hashes.get(`${folder}/${trial}`);
      const verdict = await verifyCassette(file, {
        shown: relative(options.projectDir, file),
        ...(referenceHash && { referenceHash }),
      });
      const simulated = verdict.source !== 'live';
      verdicts.push({
        ...verdict,
        rerecordCommand: rerecordCommand(task, variant, trial, simulated),
      });
    }
  }
  return verdicts;
}
