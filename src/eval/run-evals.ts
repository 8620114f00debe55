import { existsSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { startVitest } from 'vitest/node';
import { writeFileAtomic } from '../core/atomic-write.js';
import { ConfigError } from '../core/errors.js';
import { buildReport } from './report/build-report.js';
import { renderMarkdown } from './report/markdown.js';
import { type EvalReport, parseReport } from './report/report-schema.js';
import { renderTerminal } from './report/terminal.js';
import { EvalReporter } from './reporter.js';
import { EVAL_ENV, suiteMatches } from './settings.js';
import type { TrialRecord } from './trial-record.js';

export interface RunEvalsOptions {
  projectDir: string;
  mode: 'replay' | 'record';
  trials: number;
  /** Only these trial numbers (re-recording some trials), instead of 1..trials. */
  trialNumbers?: number[];
  tasks?: string[];
  variants?: string[];
  suites?: string[];
  matching?: 'strict' | 'lenient';
  source?: 'live' | 'simulator';
  missingOnly?: boolean;
  concurrency?: number;
  model?: string;
  /** A report to compare against; defaults to reports/reference.json when it exists. */
  compare?: string;
  updateReference?: boolean;
  /** One-sided significance level of the drop test when cassettes differ (default 0.05). */
  alpha?: number;
  /** Floors are checked against the interval's lower bound. */
  strictFloors?: boolean;
  /** Write reports/latest.{json,md} and the job summary (off when recording). */
  writeReports?: boolean;
  color?: boolean;
  log?: (line: string) => void;
  onTrial?: (record: TrialRecord, ms: number) => void;
}

export interface RunEvalsResult {
  report: EvalReport;
  records: TrialRecord[];
  /** What the CLI prints: the terminal tables. */
  terminal: string;
  written: string[];
  /** Things the user should know about this run (e.g. why the reference was not compared). */
  notes: string[];
}

/**
 * Run the eval suites in vitest, then build, write and gate the report.
 * Returns the report; its `gate.passed` is the exit code's verdict.
 */
export async function runEvals(options: RunEvalsOptions): Promise<RunEvalsResult> {
  const projectDir = resolve(options.projectDir);
  const reference = await loadReference(projectDir, options.compare);
  setEnv(options, projectDir);
  const reporter = new EvalReporter({
    root: projectDir,
    ...(options.onTrial && { onTrial: options.onTrial }),
  });
  const vitest = await startVitest(
    'test',
    [],
    {
      config: join(projectDir, 'vitest.evals.config.ts'),
      root: projectDir,
      watch: false,
      reporters: [reporter],
      ...(options.concurrency !== undefined && { maxConcurrency: options.concurrency }),
    },
    {},
    { stdout: process.stdout, stderr: process.stderr },
  );
  await vitest.close();
  checkSelection(options, reporter);

  const notes: string[] = [];
  const trials = options.trialNumbers ? options.trialNumbers.length : options.trials;
  // Other trial counts are compared through the drop test (their cassettes differ).
  const comparable = reference;
  if (reference && reference.report.trials !== trials) {
    notes.push(
      `${relative(process.cwd(), reference.file)} was made with --trials ${reference.report.trials}, this run has ${trials}: drops are judged by a one-sided test, not point by point`,
    );
  }
  const report = buildReport({
    records: reporter.records,
    trials,
    floors: [...reporter.floors].flatMap(([task, floors]) =>
      floors.map((floor) => ({ task, floor })),
    ),
    ...(comparable && { reference: comparable.report }),
    generatedAt: new Date(),
    ...(options.alpha !== undefined && { alpha: options.alpha }),
    ...(options.strictFloors && { strictFloors: true }),
  });
  if (reporter.loadErrors.length > 0) {
    report.gate = {
      ...report.gate,
      passed: false,
      reasons: [...reporter.loadErrors, ...report.gate.reasons],
    };
  }
  const terminal = renderTerminal(report, { color: options.color ?? false });
  const written: string[] = [];
  if (options.writeReports === false)
    return { report, records: reporter.records, terminal, written, notes };
  const markdown = renderMarkdown(report);
  const reports = join(projectDir, 'reports');
  await writeFileAtomic(join(reports, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFileAtomic(join(reports, 'latest.md'), markdown);
  written.push('reports/latest.json', 'reports/latest.md');
  if (options.updateReference) {
    await writeFileAtomic(join(reports, 'reference.json'), `${JSON.stringify(report, null, 2)}\n`);
    written.push('reports/reference.json');
  }
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary) {
    await appendFile(summary, `${markdown}\n`);
    written.push('$GITHUB_STEP_SUMMARY');
  }
  return { report, records: reporter.records, terminal, written, notes };
}

async function loadReference(projectDir: string, compare: string | undefined) {
  const file = compare ? resolve(compare) : join(projectDir, 'reports', 'reference.json');
  if (!compare && !existsSync(file)) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new ConfigError(
      `--compare ${relative(process.cwd(), file)}: no such file; give a report written by npm run eval (reports/latest.json)`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `${relative(process.cwd(), file)} is not valid JSON (${(error as Error).message}); regenerate it with npm run eval -- --update-reference`,
    );
  }
  return { file, report: parseReport(json, relative(process.cwd(), file)) };
}

function setEnv(options: RunEvalsOptions, projectDir: string): void {
  const env: Record<string, string | undefined> = {
    [EVAL_ENV.root]: projectDir,
    [EVAL_ENV.mode]: options.mode,
    [EVAL_ENV.trials]: String(options.trials),
    [EVAL_ENV.trial]: options.trialNumbers?.join(','),
    [EVAL_ENV.tasks]: options.tasks?.join(','),
    [EVAL_ENV.variants]: options.variants?.join(','),
    [EVAL_ENV.suites]: options.suites?.join(','),
    [EVAL_ENV.matching]: options.matching,
    [EVAL_ENV.source]: options.source,
    [EVAL_ENV.missingOnly]: options.missingOnly ? '1' : undefined,
    [EVAL_ENV.model]: options.model,
    [EVAL_ENV.concurrency]:
      options.concurrency === undefined ? undefined : String(options.concurrency),
  };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

/** An unknown task, variant or suite is a typo, not an empty success. */
function checkSelection(options: RunEvalsOptions, reporter: EvalReporter): void {
  const unknown = (asked: string[] | undefined, known: Set<string>, what: string) => {
    const upper = new Set([...known].map((name) => name.toUpperCase()));
    const missing = (asked ?? []).filter((name) => !upper.has(name.toUpperCase()));
    if (missing.length > 0) {
      throw new ConfigError(
        `unknown ${what} ${missing.join(', ')}: known ${what}s are ${[...known].sort().join(', ') || '(none)'}`,
      );
    }
  };
  unknown(options.tasks, reporter.knownTasks, 'task');
  unknown(options.variants, reporter.knownVariants, 'variant');
  checkSuites(options.suites ?? [], reporter.knownSuites);
  if (reporter.loadErrors.length === 0 && reporter.knownTasks.size === 0) {
    throw new ConfigError(
      'no eval tasks found: add evals/<name>.eval.ts files that call defineTask',
    );
  }
}

/** Each --suite name must pick exactly one suite: its full name or a unique prefix of it. */
function checkSuites(asked: readonly string[], known: ReadonlySet<string>): void {
  const names = [...known].sort();
  for (const name of asked) {
    const matched = names.filter((suite) => suiteMatches(name, suite));
    if (matched.length === 0) {
      throw new ConfigError(
        `unknown suite ${name}: known suites are ${names.join(', ') || '(none)'}`,
      );
    }
    if (matched.length > 1) {
      throw new ConfigError(
        `--suite ${name} is ambiguous: it matches ${matched.join(', ')}; give more of the name`,
      );
    }
  }
}
