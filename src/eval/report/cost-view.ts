import type { Cost, Costs, RunCosts } from './cost-schema.js';
import type { EvalReport } from './report-schema.js';

/** The cost section as every renderer shows it: texts only, computed once. */
export interface CostView {
  title: string;
  /** Per row: its trials, the mean per trial, what recording them cost, and its judges apart. */
  head: string[];
  rows: string[][];
  /** Per suite and variant: the same sums. */
  variantHead: string[];
  variants: string[][];
  /** The run: recorded vs spent now, estimates, unknown prices, and the prices used. */
  lines: string[];
}

/** "$0.0315", "≈$1.26" for an estimate, "unknown" without a price, "—" over no calls. */
export function formatUsd(cost: Cost, divideBy = 1): string {
  if (cost.usd === null) return 'unknown';
  if (cost.calls === 0) return '—';
  return `${cost.estimate ? '≈' : ''}${dollars(cost.usd / divideBy)}`;
}

/** "1 trial", "3 trials". */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function dollars(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  return `$${usd.toFixed(usd >= 1 ? 2 : usd >= 0.01 ? 3 : 4)}`;
}

function rowCells(cost: Costs): string[] {
  return [
    String(cost.recorded.calls),
    formatUsd(cost.recorded, cost.recorded.calls || 1),
    formatUsd(cost.recorded),
    cost.judges.calls > 0 ? `${formatUsd(cost.judges)} (${count(cost.judges.calls, 'call')})` : '—',
  ];
}

function spentLine(cost: RunCosts): string {
  const { run, runJudges } = cost;
  if (run.calls === 0 && runJudges.calls === 0) {
    return 'This run cost $0: it replayed recorded trials and judge verdicts, no model was called.';
  }
  const parts = [
    ...(run.calls > 0
      ? [`${formatUsd(run)} for the ${count(run.calls, 'trial')} it recorded`]
      : []),
    ...(runJudges.calls > 0
      ? [`${formatUsd(runJudges)} for ${count(runJudges.calls, 'judge call')}`]
      : []),
  ];
  return `This run cost ${parts.join(' and ')}.`;
}

function priceLines(cost: RunCosts): string[] {
  const unpriced = [
    ...new Set([
      ...cost.recorded.unpriced,
      ...cost.judges.unpriced,
      ...cost.run.unpriced,
      ...cost.runJudges.unpriced,
    ]),
  ];
  // $3.00, $0.30, $0.025: cents always, finer digits only where the price has them.
  const usd = (value: number) => `$${Number.isInteger(value * 100) ? value.toFixed(2) : value}`;
  return [
    ...(unpriced.length > 0
      ? [
          `unknown: no price for ${unpriced.join(', ')}; add ${unpriced.length === 1 ? 'it' : 'them'} to harness-evals.prices.json (see docs/numbers.md, "What the trials cost").`,
        ]
      : []),
    ...(cost.prices.length > 0
      ? [
          'Prices per million tokens, input / output / cache write / cache read:',
          ...cost.prices.map(
            (price) =>
              `  ${price.model} ${[price.input, price.output, price.cacheWrite, price.cacheRead].map(usd).join(' / ')} (${price.from})`,
          ),
        ]
      : []),
  ];
}

/** Where a trial's cost is kept in `trialCosts`: its suite, task, variant, case and number. */
export function trialCostKey(trial: {
  suite: string;
  task: string;
  variant: string;
  case?: string | undefined;
  trial: number;
}): string {
  return JSON.stringify([trial.suite, trial.task, trial.variant, trial.case ?? null, trial.trial]);
}

/** Each trial's recorded cost as shown ("$0.0045", "≈$0.0095", "unknown"), by trialCostKey. */
export function trialCosts(report: EvalReport): Record<string, string> {
  const costs: Record<string, string> = {};
  for (const entry of report.trialProvenance) {
    if (entry.costUsd === undefined) continue;
    costs[trialCostKey(entry)] = formatUsd({
      usd: entry.costUsd,
      calls: 1,
      estimate: entry.source === 'simulator',
      unpriced: [],
    });
  }
  return costs;
}

/**
 * What a recording run says it spent, after its trials: the spent sentence, and the notes on
 * estimates and unknown prices that apply to it.
 */
export function spentLines(report: EvalReport): string[] {
  const view = costView(report);
  if (!view) return [];
  return view.lines.slice(1).filter((line) => !line.startsWith('Prices') && !line.startsWith('  '));
}

/** The cost section of a report; undefined for a report from before costs (schemaVersion 3). */
export function costView(report: EvalReport): CostView | undefined {
  const { cost } = report;
  if (!cost) return undefined;
  const estimate = [cost.recorded, cost.judges, cost.run, cost.runJudges].some((c) => c.estimate);
  return {
    title: 'Cost in US dollars, from the recorded token counts',
    head: ['Task', 'Variant', 'Trials', 'Per trial', 'Recorded', 'Judges (recorded)'],
    rows: report.tasks.flatMap((row) =>
      row.cost ? [[row.task, row.variant, ...rowCells(row.cost)]] : [],
    ),
    variantHead: ['Suite', 'Variant', 'Trials', 'Per trial', 'Recorded', 'Judges (recorded)'],
    variants: report.summary.flatMap((row) =>
      row.cost ? [[row.suite, row.variant, ...rowCells(row.cost)]] : [],
    ),
    lines: [
      `Recording these trials cost ${formatUsd(cost.recorded)} (${count(cost.recorded.calls, 'trial')}), their judges' verdicts ${cost.judges.calls > 0 ? `${formatUsd(cost.judges)} (${count(cost.judges.calls, 'call')})` : 'nothing (none judged)'}.`,
      spentLine(cost),
      ...(estimate
        ? [
            '≈: simulator token counts are estimates, so is their cost (what the same tokens would cost live; recording with the simulator spends nothing).',
          ]
        : []),
      ...priceLines(cost),
    ],
  };
}
