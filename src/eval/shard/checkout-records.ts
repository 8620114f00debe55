import { join } from 'node:path';
import { canonicalJson } from '../../core/canonical-json.js';
import { ConfigError, errorMessage } from '../../core/errors.js';
import { type Cassette, cassettePath } from '../../replay/cassette.js';
import { readCassette } from '../../replay/cassette-file.js';
import { cassetteHash } from '../../replay/cassette-hash.js';
import { UNRECORDED_JUDGE } from '../grade/grade-trial.js';
import {
  type JudgeCassette,
  judgeCassettePath,
  readJudgeCassette,
} from '../grade/judge-cassette.js';
import { sampleVerdictOf } from '../grade/judge-sample.js';
import { parseJudgeModel } from '../spec/judge-model.js';
import { type JudgmentRecord, judgmentOf } from '../spec/judgment.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { inventoryFixtures } from '../verify/fixture-inventory.js';
import { currentCommit } from './commit.js';
import { shownName } from './shard-coverage.js';

/**
 * The shards' records as this checkout has them, or a ConfigError when they belong to another
 * commit or other fixtures. What the checkout can say is taken from it, never from the shard
 * files: each replayed trial's cassette hash is recomputed from fixtures/ (and must be the one
 * the shard replayed), and its provenance (source, host, model, recordedAt) and recorded model
 * latencies are read from that cassette; its fixture and trace paths are the trial's own.
 * What merge still trusts is what only running the trial gives: its outcome, messages, run
 * stats and tokens, which CI's shard jobs of the same workflow run produced.
 */
export async function recordsFromCheckout(
  projectDir: string,
  merged: { records: readonly TrialRecord[]; files: readonly string[]; commit: string | null },
): Promise<TrialRecord[]> {
  const commit = await currentCommit(projectDir);
  if (commit !== merged.commit) {
    throw new ConfigError(
      `cannot merge: the shards ran at commit ${merged.commit ?? 'none (not in git)'}, this checkout is at ${commit ?? 'none (not in git)'}: merge shards of the commit checked out here only (re-run them on it)`,
    );
  }
  // The walker eval and verify use: a symlink under fixtures/ is refused here too.
  inventoryFixtures(join(projectDir, 'fixtures'));
  const problems: string[] = [];
  const records = await Promise.all(
    merged.records.map(async (record, index) => {
      const rebuilt = withOwnPaths(record);
      if (record.cassetteHash === undefined && !counted(record)) return rebuilt;
      const ofCase = record.case === undefined ? '' : ` case ${shownName(record.case)}`;
      const where = `${merged.files[index]}: ${shownName(record.task)} ${shownName(record.variant)}${ofCase} trial ${record.trial}`;
      let cassette: Cassette;
      try {
        cassette = await readCassette(join(projectDir, rebuilt.fixture!));
      } catch (error) {
        problems.push(`${where} replayed a cassette the checkout cannot (${errorMessage(error)})`);
        return rebuilt;
      }
      const hash = cassetteHash(cassette);
      if (record.cassetteHash !== hash) {
        problems.push(
          `${where} replayed ${short(record.cassetteHash)}, the checkout's ${rebuilt.fixture} is ${short(hash)}`,
        );
        return rebuilt;
      }
      const judge = judgeProblem(projectDir, record);
      if (judge) problems.push(`${where} ${judge}`);
      const { source, model, recordedAt, host } = cassette.meta;
      return {
        ...rebuilt,
        source,
        model,
        recordedAt,
        host,
        cassetteHash: hash,
        // A counted trial replayed every exchange once (strict or lenient): their recorded latencies.
        ...(counted(record) && {
          modelLatenciesMs: cassette.exchanges.map((exchange) => exchange.latencyMs),
        }),
      };
    }),
  );
  if (problems.length > 0) {
    const listed =
      problems.length > 10
        ? [...problems.slice(0, 10), `and ${problems.length - 10} more`]
        : problems;
    throw new ConfigError(
      `cannot merge: ${problems.length === 1 ? 'a record does' : `${problems.length} records do`} not match this checkout's fixtures: ${listed.join('; ')}; the shards ran on other fixtures, or their results were edited: re-run the shards of this commit`,
    );
  }
  return records;
}

/**
 * How a judged record differs from the checkout's judge cassette, if it does: another hash, or
 * verdicts that are not the ones its recorded answers give (recomputed here, as eval reads them),
 * or an outcome those verdicts contradict.
 */
function judgeProblem(projectDir: string, record: TrialRecord): string | undefined {
  const recorded = record.judgeCassetteHash;
  if (recorded === undefined || recorded === UNRECORDED_JUDGE) return undefined;
  const { task, variant, trial } = record;
  const file = judgeCassettePath('fixtures', task, variant, trial, record.case);
  let read: ReturnType<typeof readJudgeCassette>;
  try {
    read = readJudgeCassette(join(projectDir, file));
  } catch (error) {
    return `was judged from a judge cassette the checkout cannot read (${errorMessage(error)})`;
  }
  if (read.hash !== recorded)
    return `was judged from ${short(recorded)}, the checkout's ${file} is ${short(read.hash)}`;
  return verdictProblem(record, read.cassette, file);
}

/** The record's replayed judgments against the ones its judge cassette's answers give. */
function verdictProblem(
  record: TrialRecord,
  cassette: JudgeCassette,
  file: string,
): string | undefined {
  for (const judgment of record.judgments ?? []) {
    if (judgment.calls !== 'replayed') continue;
    const samples = judgment.models.flatMap((id) => {
      const tape = cassette.judgments.find(
        (entry) => entry.check === judgment.check && entry.model === id,
      );
      const asked = judgment.samples.filter((sample) => sample.model === id).length;
      const model = parseJudgeModel(id, file);
      return (tape?.samples ?? [])
        .slice(0, asked)
        .map((exchange, index) => sampleVerdictOf(exchange, model, index + 1));
    });
    const recomputed = judgmentOf(judgment, samples);
    const said = ({ verdict, votes, score, samples: listed }: JudgmentRecord) =>
      canonicalJson({ verdict, votes, score, samples: listed });
    if (said(recomputed) !== said(judgment))
      return `has judge '${judgment.check}' verdicts that are not what ${file} says (${recomputed.verdict}, ${recomputed.votes.pass} of ${samples.length} votes pass)`;
    if (record.outcome === 'passed' && recomputed.verdict !== 'pass')
      return `passed, though its judge '${judgment.check}' says ${recomputed.verdict} (${file})`;
  }
  return undefined;
}

const counted = (record: TrialRecord) => record.outcome === 'passed' || record.outcome === 'failed';
const short = (hash: string | undefined) =>
  hash === undefined ? 'no cassette' : `${hash.slice(0, 19)}…`;

/** The trial's fixture path, and its trace path when it wrote one: built from its names. */
function withOwnPaths(record: TrialRecord): TrialRecord {
  const { fixture: _fixture, tracePath, ...rest } = record;
  const { task, variant, trial } = record;
  const fixture = cassettePath('fixtures', task, variant, trial, record.case);
  return {
    ...rest,
    fixture,
    ...(tracePath !== undefined && {
      tracePath: `runs/eval${fixture.slice('fixtures'.length).replace(/\.json$/, '.jsonl')}`,
    }),
  };
}
