import { costOf, type PriceTable, priceOf } from '../spec/prices.js';
import type { TrialRecord } from '../spec/trial-record.js';
import type { Cost, Costs, RunCosts } from './cost-schema.js';
import { compareNames } from './order.js';

interface Tally {
  usd: number;
  calls: number;
  estimate: boolean;
  unpriced: Set<string>;
}

const NO_MODEL = '(no model recorded)';

function tally(): Tally {
  return { usd: 0, calls: 0, estimate: false, unpriced: new Set() };
}

function add(into: Tally, usd: number | undefined, model: string | undefined, estimate: boolean) {
  into.calls += 1;
  into.estimate ||= estimate;
  if (usd === undefined) into.unpriced.add(model ?? NO_MODEL);
  else into.usd += usd;
}

function toCost(from: Tally): Cost {
  return {
    // Micro-dollars: finer than any price list, and a report's JSON stays readable.
    usd: from.unpriced.size > 0 ? null : Math.round(from.usd * 1e6) / 1e6,
    calls: from.calls,
    estimate: from.estimate,
    unpriced: [...from.unpriced].sort(compareNames),
  };
}

/** A trial whose cassette's token counts were read: it ran, replayed or recorded. */
function hasTokens(record: TrialRecord): boolean {
  return record.stats !== undefined && record.outcome !== 'stale' && record.outcome !== 'missing';
}

/** One trial's agent calls in US dollars; null when its model has no price; undefined without token counts. */
export function trialCost(record: TrialRecord, prices: PriceTable): number | null | undefined {
  if (!hasTokens(record) || !record.stats) return undefined;
  const price = priceOf(prices, record.model);
  return price ? costOf(price, record.stats) : null;
}

/**
 * What `records` cost: their agent calls as recorded, their judges' calls apart, and what this
 * run spent (trials it wrote, judge calls it made live or recorded).
 */
export function costsOf(records: readonly TrialRecord[], prices: PriceTable): Costs {
  const [recorded, judges, run, runJudges] = [tally(), tally(), tally(), tally()];
  for (const record of records) {
    const cost = trialCost(record, prices);
    if (cost !== undefined) {
      const estimate = record.source === 'simulator';
      add(recorded, cost ?? undefined, record.model, estimate);
      if (record.written === true) add(run, cost ?? undefined, record.model, estimate);
    }
    for (const judgment of record.judgments ?? []) {
      const estimate = judgment.source === 'simulator';
      for (const sample of judgment.samples) {
        if (sample.inputTokens === undefined && sample.outputTokens === undefined) continue;
        const price = priceOf(prices, sample.model);
        const tokens = {
          inputTokens: sample.inputTokens ?? 0,
          outputTokens: sample.outputTokens ?? 0,
        };
        const usd = price ? costOf(price, tokens) : undefined;
        if (judgment.calls !== 'live') add(judges, usd, sample.model, estimate);
        if (judgment.calls !== 'replayed') add(runJudges, usd, sample.model, estimate);
      }
    }
  }
  return {
    recorded: toCost(recorded),
    judges: toCost(judges),
    run: toCost(run),
    runJudges: toCost(runJudges),
  };
}

/** The run's totals, with the price of every model its trials and judges used that has one. */
export function runCosts(records: readonly TrialRecord[], prices: PriceTable): RunCosts {
  const models = new Set<string>();
  for (const record of records) {
    if (record.model !== undefined) models.add(record.model);
    for (const judgment of record.judgments ?? []) {
      for (const sample of judgment.samples) models.add(sample.model);
    }
  }
  const used = [...models].sort(compareNames).flatMap((model) => {
    const price = priceOf(prices, model);
    return price ? [{ model, ...price }] : [];
  });
  return { ...costsOf(records, prices), prices: used };
}
