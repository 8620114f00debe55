import { join, relative } from 'node:path';
import { canonicalize } from '../core/canonical-json.js';
import { ConfigError, errorMessage } from '../core/errors.js';
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
  /**
   * A live cassette the reference has no content hash for (not replayed by the reference's run):
   * nothing could check it, so it is not counted as matching.
   */
  unchecked?: boolean;
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
        // Only the reference's hash can tell an edited model-script cassette, when it has one.
        return {
          fixture: options.shown,
          source: meta.source,
          problems: hashProblems(cassette, options.referenceHash),
          notRederived: true,
        };
      }
      if (problem) {
        problems.push(problem);
        break;
      }
    }
  } else if (options.referenceHash === undefined) {
    return { fixture: options.shown, source: meta.source, problems, unchecked: true };
  } else {
    problems.push(...hashProblems(cassette, options.referenceHash));
  }
  return { fixture: options.shown, source: meta.source, problems };
}

function hashProblems(cassette: Cassette, referenceHash: string | undefined): string[] {
  return referenceHash === undefined || referenceHash === cassetteHash(cassette)
    ? []
    : [
        'its content hash is not the one reports/reference.json replayed: edited, or re-recorded without updating the reference (npm run eval -- --update-reference)',
      ];
}

/**
 * Verify the cassettes under `fixtures/`: every one, or those of the tasks, variants and trial
 * numbers asked for. A selected trial without a cassette is listed as not matching.
 *
 * @throws ConfigError when a task or variant asked for has no cassette, or there is none at all:
 *   a selection that checks nothing must not read as "all match".
 */
export async function verifyFixtures(options: {
  projectDir: string;
  tasks?: readonly string[];
  variants?: readonly string[];
  trialNumbers?: readonly number[];
  reference?: readonly TrialProvenance[];
}): Promise<FixtureVerdict[]> {
  const fixturesDir = join(options.projectDir, 'fixtures');
  const all = inventoryFixtures(fixturesDir);
  if (all.size === 0) {
    throw new ConfigError(
      'no cassettes under fixtures/ to verify: record some first (npm run record)',
    );
  }
  const folders = [...all.keys()].map((folder) => folder.split('/') as [string, string]);
  const tasks = options.tasks?.map((task) => task.toUpperCase());
  const ofTasks = folders.filter(([task]) => !tasks || tasks.includes(task.toUpperCase()));
  refuseUnknown(
    '--task',
    options.tasks?.filter(
      (asked) => !ofTasks.some(([task]) => task.toUpperCase() === asked.toUpperCase()),
    ),
    folders.map(([task]) => task),
  );
  refuseUnknown(
    '--variant',
    options.variants?.filter((asked) => !ofTasks.some(([, variant]) => variant === asked)),
    ofTasks.map(([, variant]) => variant),
  );
  const hashes = new Map(
    (options.reference ?? []).map((trial) => [
      `${trial.task}/${trial.variant}/${trial.trial}`,
      trial.cassetteHash,
    ]),
  );
  const verdicts: FixtureVerdict[] = [];
  for (const [task, variant] of ofTasks) {
    if (options.variants && !options.variants.includes(variant)) continue;
    const folder = `${task}/${variant}`;
    const recorded = all.get(folder) ?? [];
    for (const trial of options.trialNumbers ?? recorded) {
      const file = join(fixturesDir, folder, `trial-${trial}.json`);
      const shown = relative(options.projectDir, file);
      if (!recorded.includes(trial)) {
        const command = rerecordCommand(task, variant, trial, false);
        verdicts.push({ fixture: shown, problems: [`no such cassette: record it (${command})`] });
        continue;
      }
      const referenceHash = hashes.get(`${folder}/${trial}`);
      const verdict = await verifyCassette(file, {
        shown,
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

function refuseUnknown(flag: string, unknown: string[] | undefined, known: string[]): void {
  if (!unknown || unknown.length === 0) return;
  const names = [...new Set(known)].sort();
  throw new ConfigError(
    `${flag} ${unknown.join(',')} matches no cassette under fixtures/: the ${flag === '--task' ? 'tasks' : 'variants'} with cassettes are ${names.join(', ')}`,
  );
}
