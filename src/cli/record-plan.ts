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
  for (const row of rows) {
    const p0 = row.passAt1 ?? 0;
    const counts = { passed: row.passed, trials: row.n };
    const limit = referenceLimit({ ...counts, delta, beta });
    // A dataset row is decided against its baseline only (paired by case), as the eval does.
    if (!row.cases) {
      plan.push({
        label: `${row.task} ${row.variant}`,
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
  console.log('row | design | fixed n | no change: expected / p95 | drop of delta: expected / p95');
  let expected = 0;
  let worst = 0;
  for (const row of plan) {
    console.log(
      terminalLine(
        `${row.label} | ${row.design} | ${cell(row.fixedN)} | ${cell(row.noChange.expected)} / ${cell(row.noChange.p95)} | ${cell(row.drop.expected)} / ${cell(row.drop.p95)}`,
      ),
    );
    if (row.limit) console.log(terminalLine(`    ${row.limit}`));
    expected += row.noChange.expected;
    worst += Math.max(row.noChange.p95, row.drop.p95);
  }
  console.log(
    `Expected total when nothing changed: about ${Math.ceil(expected)} trials; a likely worst case: ${Math.ceil(worst)} (each row at its 95th percentile). A paired row's trials count on each side.`,
  );
}
