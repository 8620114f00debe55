import { ConfigError } from '../core/errors.js';
import { DEFAULT_ALPHA } from '../eval/report/compare.js';
import { DEFAULT_BETA, DEFAULT_DELTA } from '../eval/report/decisions-schema.js';
import { loadReference } from '../eval/run/finish-run.js';
import { forecastRounds } from '../eval/stats/sequential-forecast.js';
import { referenceLimit } from '../eval/stats/sequential-limit.js';
import { fraction } from './args.js';
import { decisionFlags } from './decision-flags.js';
import { DEFAULT_MAX_TRIALS } from './record-until-decided.js';
import { terminalLine } from './terminal-text.js';

interface PlanFlags {
  alpha?: string | undefined;
  delta?: string | undefined;
  beta?: string | undefined;
  undecided?: string | undefined;
  'max-trials'?: string | undefined;
}

interface PlanRow {
  label: string;
  /** The mean recorded cost of one trial (both sides' for a paired row); undefined: unknown. */
  perTrial: number | undefined;
  design: string;
  fixedN: number | undefined;
  noChange: { expected: number; p95: number };
  drop: { expected: number; p95: number };
  limit?: string;
}

const cell = (value: number | undefined) =>
  value === undefined ? '>400' : String(Math.ceil(value));

/**
 * `npm run record -- --plan`: spends nothing. Per row of reports/reference.json the selection
 * keeps, the trials a decision would likely take: the fixed-n design with the same alpha and
 * power, and the sequential rule's expected and 95th-percentile trials when nothing changed and
 * under a drop of delta, against the fixed reference and, for a variant beside a baseline,
 * paired with a baseline that grows with it. Then the expected total and a likely worst case.
 */
export async function planWith(
  values: PlanFlags,
  selection: { tasks?: string[]; variants?: string[] },
): Promise<number> {
  const decide = decisionFlags(values);
  const alpha = fraction('--alpha', values.alpha) ?? DEFAULT_ALPHA;
  const delta = decide.delta ?? DEFAULT_DELTA;
  const beta = decide.beta ?? DEFAULT_BETA;
  const maxRounds = decide.maxTrials ?? DEFAULT_MAX_TRIALS;
  const reference = await loadReference(process.cwd(), undefined);
  if (!reference) {
    throw new ConfigError(
      '--plan forecasts from the reference rates: there is no reports/reference.json; make one with npm run eval -- --update-reference',
    );
  }
  const upper = (names?: string[]) => names?.map((name) => name.toUpperCase());
  const tasks = upper(selection.tasks);
  const rows = reference.report.tasks.filter(
    (row) =>
      row.n > 0 &&
      (!tasks || tasks.includes(row.task.toUpperCase())) &&
      (!selection.variants || selection.variants.includes(row.variant)),
  );
  const baselines = reference.report.baselines ?? {};
  const compared =
    rows.filter((row) => !row.cases).length +
    rows.filter((row) => baselines[row.suite] !== row.variant).length;
  const common = { delta, alpha, beta, rows: Math.max(1, compared), maxRounds };
  const plan: PlanRow[] = [];
  const perTrialOf = (task: string, variant: string) => {
    const cost = reference.report.tasks.find(
      (other) => other.task === task && other.variant === variant,
    )?.cost?.recorded;
    return cost && cost.usd !== null && cost.calls > 0 ? cost.usd / cost.calls : undefined;
  };
  for (const row of rows) {
    const p0 = row.passAt1 ?? 0;
    const perTrial = perTrialOf(row.task, row.variant);
    const counts = { passed: row.passed, trials: row.n };
    const limit = referenceLimit({ ...counts, delta, beta });
    // A dataset row is decided against its baseline only (paired by case), as the eval does.
    if (!row.cases) {
      plan.push({
        label: `${row.task} ${row.variant}`,
        perTrial,
        design: `vs reference (${row.passed}/${row.n})`,
        ...forecastRounds({ ...common, p0, design: { reference: counts } }),
        ...(!limit.possible && { limit: limit.summary }),
      });
    }
    const baseline = baselines[row.suite];
    const base = reference.report.tasks.find(
      (other) => other.task === row.task && other.variant === baseline,
    );
    if (baseline === undefined || baseline === row.variant || !base) continue;
    plan.push({
      label: `${row.task} ${row.variant}`,
      perTrial:
        perTrial === undefined || perTrialOf(row.task, baseline) === undefined
          ? undefined
          : perTrial + perTrialOf(row.task, baseline)!,
      design: `paired with ${baseline}`,
      ...forecastRounds({ ...common, p0: base.passAt1 ?? 0, design: 'paired' }),
    });
  }
  printPlan(plan, { alpha, delta, beta, maxRounds, file: reference.file });
  return 0;
}

function printPlan(
  plan: readonly PlanRow[],
  settings: { alpha: number; delta: number; beta: number; maxRounds: number; file: string },
): void {
  console.log(
    `Plan (spends nothing): trials per row to decide a pass@1 drop of ${settings.delta.toFixed(2)}, alpha ${settings.alpha} for the run, beta ${settings.beta}, at most ${settings.maxRounds} a row; rates from ${settings.file}`,
  );
  console.log(
    'row | design | fixed n | no change: expected / p95 | drop of delta: expected / p95 | expected cost (no change) vs fixed n',
  );
  const totals = { expected: 0, worst: 0, usd: 0, worstUsd: 0, unknown: false };
  for (const row of plan) {
    const usd = (trials: number | undefined) =>
      row.perTrial === undefined || trials === undefined
        ? 'unknown'
        : `$${(row.perTrial * trials).toFixed(2)}`;
    console.log(
      terminalLine(
        `${row.label} | ${row.design} | ${cell(row.fixedN)} | ${cell(row.noChange.expected)} / ${cell(row.noChange.p95)} | ${cell(row.drop.expected)} / ${cell(row.drop.p95)} | ${usd(row.noChange.expected)} vs ${usd(row.fixedN)}`,
      ),
    );
    if (row.limit) console.log(terminalLine(`    ${row.limit}`));
    const worst = Math.max(row.noChange.p95, row.drop.p95);
    totals.expected += row.noChange.expected;
    totals.worst += worst;
    if (row.perTrial === undefined) totals.unknown = true;
    else {
      totals.usd += row.perTrial * row.noChange.expected;
      totals.worstUsd += row.perTrial * worst;
    }
  }
  const money = (usd: number) => (totals.unknown ? 'cost unknown' : `$${usd.toFixed(2)}`);
  console.log(
    `Expected total when nothing changed: about ${Math.ceil(totals.expected)} trials (${money(totals.usd)}); a likely worst case: ${Math.ceil(totals.worst)} (${money(totals.worstUsd)}), each row at its 95th percentile. A paired row's trials count on each side. Costs are the reference's mean recorded cost per trial of each row${totals.unknown ? '; unknown where it has none (a reference from before costs, or a model without a price: harness-evals.prices.json)' : ''}.`,
  );
}
