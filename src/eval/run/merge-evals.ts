import { resolve } from 'node:path';
import { maskConfiguredKeys } from '../../core/secret-values.js';
import { recordsFromCheckout } from '../shard/checkout-records.js';
import { readShardResults } from '../shard/shard-result.js';
import type { TrialRecord } from '../spec/trial-record.js';
import {
  type FinishedRun,
  finishRun,
  loadComparison,
  type ReportOptions,
  readPricesFile,
} from './finish-run.js';
import { checkWholeSuiteReference } from './reference-file.js';

export interface MergeEvalsResult extends FinishedRun {
  records: TrialRecord[];
  shards: number;
}

/**
 * `eval --merge DIR`: one report and one gate from the results of `eval --shard i/n`, the
 * same as one unsharded run would have made (except for the timestamp).
 */
export async function mergeEvals(
  options: ReportOptions & { projectDir: string; dir: string },
): Promise<MergeEvalsResult> {
  const projectDir = resolve(options.projectDir);
  // Reports and gate reasons mask the configured keys' exact values, whatever their shape.
  maskConfiguredKeys(process.env);
  const comparison = await loadComparison(projectDir, options);
  const prices = await readPricesFile(projectDir);
  const merged = await readShardResults(resolve(options.dir));
  checkWholeSuiteReference(merged.selection, options.updateReference, 'the shards select');
  const records = await recordsFromCheckout(projectDir, merged);
  const finished = await finishRun(
    {
      projectDir,
      records,
      floors: merged.floors,
      loadErrors: merged.loadErrors,
      declared: merged.declared,
      trials: merged.trials,
      ...comparison,
      prices,
    },
    options,
  );
  return { ...finished, records, shards: merged.count };
}
