import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { ConfigError } from '../../core/errors.js';
import { parseWith } from '../../core/parse.js';
import { readRegularFile, whyUnreadable } from '../../core/regular-file.js';
import type { TaskFloor } from '../report/gate.js';
import { formatShard, type Shard } from '../spec/shard.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { checkShardCoverage, shownName } from './shard-coverage.js';
import {
  SHARD_RESULT_VERSION,
  type ShardResult,
  ShardResultSchema,
  type ShardSelection,
} from './shard-result-schema.js';

export function shardResultPath(projectDir: string, shard: Shard): string {
  return join(projectDir, 'reports', 'shards', `shard-${shard.index}-of-${shard.count}.json`);
}

export async function writeShardResult(
  file: string,
  result: Omit<ShardResult, 'kind' | 'version'>,
): Promise<void> {
  const data: ShardResult = {
    kind: 'harness-evals-shard',
    version: SHARD_RESULT_VERSION,
    ...result,
  };
  await writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`);
}

export interface MergedShards {
  records: TrialRecord[];
  /** Each record's shard file, for messages. */
  files: string[];
  /** The commit every shard ran at (null outside git). */
  commit: string | null;
  floors: TaskFloor[];
  loadErrors: string[];
  declared: Set<string>;
  trials: number;
  /** What every shard was asked to run. */
  selection: ShardSelection;
  count: number;
}

/** Equal as JSON: the selection every shard of one run shares. */
const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

/**
 * Merge the results of `eval --shard i/n` found in `dir` (shard-*-of-*.json) into the records
 * of one run. Refuses a set that is incomplete, mixes shard counts or selections, holds a
 * trial twice, lacks a selected trial or holds one outside the selection (checkShardCoverage),
 * naming the files and the fix.
 */
export function mergeShardResults(
  results: ReadonlyArray<{ file: string; result: ShardResult }>,
): MergedShards {
  const [first] = results;
  if (!first) {
    throw new ConfigError('no shard results to merge: run npm run eval -- --shard i/n first');
  }
  const { count } = first.result.shard;
  for (const { file, result } of results) {
    if (
      result.shard.count !== count ||
      result.trials !== first.result.trials ||
      !same(result.selection, first.result.selection)
    ) {
      throw new ConfigError(
        `${file} belongs to another run (shard ${formatShard(result.shard)}, ${JSON.stringify(result.selection)}) than ${first.file} (shard ${formatShard(first.result.shard)}, ${JSON.stringify(first.result.selection)}); merge the shards of one run only`,
      );
    }
    if (result.commit !== first.result.commit) {
      throw new ConfigError(
        `${file} ran at commit ${result.commit ?? 'none (not in git)'}, ${first.file} at ${first.result.commit ?? 'none (not in git)'}: merge the shards of one commit only (re-run them)`,
      );
    }
  }
  const indices = results.map(({ result }) => result.shard.index);
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter(
    (i) => !indices.includes(i),
  );
  const twice = indices.filter((index, position) => indices.indexOf(index) !== position);
  if (missing.length > 0 || twice.length > 0) {
    const problems = [
      ...(missing.length > 0
        ? [`missing shard ${missing.map((i) => `${i}/${count}`).join(', ')}`]
        : []),
      ...(twice.length > 0
        ? [`shard ${twice.map((i) => `${i}/${count}`).join(', ')} given twice`]
        : []),
    ];
    throw new ConfigError(
      `cannot merge: ${problems.join('; ')}; run each missing shard with npm run eval -- --shard i/${count}`,
    );
  }
  const seen = new Set<string>();
  const records: Array<{ file: string; record: TrialRecord }> = [];
  for (const { file, result } of results) {
    for (const record of result.records) {
      const key = JSON.stringify([
        record.suite,
        record.task,
        record.variant,
        record.case ?? null,
        record.trial,
      ]);
      if (seen.has(key)) {
        const testCase = record.case === undefined ? '' : ` case ${shownName(record.case)}`;
        throw new ConfigError(
          `${file}: ${shownName(record.task)} ${shownName(record.variant)}${testCase} trial ${record.trial} is in another shard too; re-run the shards of one run`,
        );
      }
      seen.add(key);
      records.push({ file, record });
    }
  }
  const uncovered = checkShardCoverage(results, records);
  const floors = new Map<string, TaskFloor>();
  for (const { result } of results) {
    for (const floor of result.floors) floors.set(JSON.stringify(floor), floor);
  }
  return {
    records: records.map(({ record }) => record),
    files: records.map(({ file }) => file),
    commit: first.result.commit,
    floors: [...floors.values()],
    loadErrors: [...new Set(results.flatMap(({ result }) => result.loadErrors)), ...uncovered],
    declared: new Set(results.flatMap(({ result }) => result.declared)),
    trials: first.result.trials,
    selection: first.result.selection,
    count,
  };
}

/** The most one shard result may hold: a 2,000-trial slice with long messages is a few MiB. */
export const MAX_SHARD_BYTES = 64 * 1024 * 1024;
/** The most all the shard results of one run may hold together. */
export const MAX_SHARDS_BYTES = 256 * 1024 * 1024;
/** The most shards of one run (`--shard i/n` takes n up to 64). */
const MAX_SHARDS = 64;

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    // Unreadable: the read below says why.
    return 0;
  }
}

/** Read every shard-*-of-*.json in `dir` and merge them. */
export async function readShardResults(dir: string): Promise<MergedShards> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => /^shard-\d+-of-\d+\.json$/.test(name)).sort();
  } catch {
    throw new ConfigError(
      `--merge ${dir}: no such folder; give the folder the shards wrote (reports/shards)`,
    );
  }
  if (names.length === 0) {
    throw new ConfigError(
      `--merge ${dir}: no shard-<i>-of-<n>.json in it; run npm run eval -- --shard i/n first`,
    );
  }
  if (names.length > MAX_SHARDS) {
    throw new ConfigError(
      `--merge ${dir}: ${names.length} shard results, more than a run has (at most ${MAX_SHARDS}); give the folder of one run's shards`,
    );
  }
  const shown = (name: string) => relative(process.cwd(), join(dir, name)) || name;
  // Sizes are checked before anything is read or parsed: a hostile file cannot take the merge down.
  let total = 0;
  for (const name of names) {
    const size = await sizeOf(join(dir, name));
    total += size;
    if (size > MAX_SHARD_BYTES || total > MAX_SHARDS_BYTES) {
      throw new ConfigError(
        `${shown(name)} is ${size > MAX_SHARD_BYTES ? `${mib(size)}, more than a shard result holds (at most ${mib(MAX_SHARD_BYTES)})` : `one of shard results of ${mib(total)} in all, more than a run's (at most ${mib(MAX_SHARDS_BYTES)})`}: it was not written by npm run eval -- --shard; re-run the shards`,
      );
    }
  }
  const results = await Promise.all(
    names.map(async (name) => {
      const file = shown(name);
      let text: string;
      try {
        const bytes = await readRegularFile(join(dir, name));
        // It may have grown since its size was checked.
        if (bytes.length > MAX_SHARD_BYTES) throw new Error(`it grew past ${mib(MAX_SHARD_BYTES)}`);
        text = bytes.toString('utf8');
      } catch (error) {
        throw new ConfigError(
          `${file} cannot be read (${whyUnreadable(error)}); re-run that shard`,
        );
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new ConfigError(
          `${file} is not valid JSON (${(error as Error).message}); re-run that shard`,
        );
      }
      const version = (json as { version?: unknown } | null)?.version;
      if (typeof version === 'number' && version !== SHARD_RESULT_VERSION) {
        throw new ConfigError(
          `${file} is a version ${version} shard result, this build reads version ${SHARD_RESULT_VERSION}: re-run the shards with this build`,
        );
      }
      return { file, result: parseWith(ShardResultSchema, json, file) };
    }),
  );
  return mergeShardResults(results);
}
