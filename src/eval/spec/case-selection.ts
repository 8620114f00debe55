import { fnv1a } from '../../simulator/rng.js';
import type { EvalCase } from './cases.js';

/** What `--case` and `--cases` asked for. */
export interface CaseFilter {
  /** `--case q1,q7`: these cases only (case-blind); empty: every case. */
  cases: readonly string[];
  /** `--cases N`: N cases, the same N on every run and every shard. */
  caseSample: number | undefined;
}

/**
 * The cases of a task a run takes: those `--case` names, then `--cases N` of them, picked by a
 * hash of the task and case id (the same sample in record and eval, on every shard and
 * machine, whatever the file order), in dataset order.
 *
 * @example selectCases('T7', cases, { cases: [], caseSample: 5 })
 */
export function selectCases(
  task: string,
  cases: readonly EvalCase[],
  filter: CaseFilter,
): EvalCase[] {
  const asked = new Set(filter.cases.map((id) => id.toLowerCase()));
  const named =
    asked.size === 0 ? [...cases] : cases.filter((item) => asked.has(item.id.toLowerCase()));
  if (filter.caseSample === undefined || filter.caseSample >= named.length) return named;
  const rank = (item: EvalCase) => fnv1a(`${task}/${item.id.toLowerCase()}`);
  const picked = new Set(
    [...named]
      .sort((a, b) => rank(a) - rank(b) || (a.id < b.id ? -1 : 1))
      .slice(0, filter.caseSample),
  );
  return named.filter((item) => picked.has(item));
}
