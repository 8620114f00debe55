import { relative } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule, TestSuite } from 'vitest/node';
import type { TrialTranscript } from '../report/load-transcripts.js';
import { redactForReport } from '../report/redact.js';
// From spec/: report/compare.js would load the statistics (and zod) before the worker starts.
import { keyOf } from '../spec/selection.js';
import type { Floor, TrialRecord } from '../spec/trial-record.js';
import type { ScriptedVerdict } from '../verify/rederive-scripted.js';

/**
 * Collects one TrialRecord per trial from the tests' metadata. Vitest's own
 * pass/fail is not the verdict: the eval gate is (baseline failures are data).
 */
export class EvalReporter implements Reporter {
  readonly records: TrialRecord[] = [];
  readonly floors = new Map<string, Floor[]>();
  /** Task files that failed to load, named; the other tasks still ran. */
  readonly loadErrors: string[] = [];
  /**
   * Errors thrown outside any test's own flow: an uncaught exception or an unhandled
   * rejection (a timer or a promise nobody awaited, in an agent, a tool or a check), or a
   * worker that failed. Each could have let a trial pass that should not have (the gate adds
   * RUN_ERROR_ADVICE to each).
   */
  readonly runErrors: string[] = [];
  /** Files a task names that are missing, empty or wrong (TaskInputError): one line each. */
  readonly inputErrors: string[] = [];
  /** `record --verify`: the cassettes the trials re-derived with their task's own scripts. */
  readonly scripted: ScriptedVerdict[] = [];
  /** Trials whose test failed before it wrote a record (it timed out, or threw): no verdict. */
  readonly unfinished: UnfinishedTrial[] = [];
  /** Every task id and variant that was declared, selected or not. */
  readonly knownTasks = new Set<string>();
  readonly knownVariants = new Set<string>();
  readonly knownSuites = new Set<string>();
  /** Every (suite, task, variant) declared, selected or not, as `keyOf` keys. */
  readonly declared = new Set<string>();
  /** Each dataset task's cases, by JSON [suite, task]: all of them, and those the run selected. */
  readonly cases = new Map<string, { all: string[]; selected: string[] }>();
  /**
   * Each task id (lower-cased) with its declarations (describe blocks) seen: more than one
   * share cassettes and floors. defineTask refuses them at load time; this catches them when
   * the eval files ran isolated from each other (another vitest config).
   */
  private readonly declarations = new Map<
    string,
    Map<string, { task: string; suite: string; file: string }>
  >();
  /**
   * With `preloadTranscripts`: each record's transcript for the HTML report, read while the
   * other trials still run (this thread is mostly idle then) instead of all at the end.
   */
  readonly transcripts = new Map<TrialRecord, Promise<TrialTranscript>>();
  private readonly onTrial: ((record: TrialRecord, ms: number) => void) | undefined;
  private readonly onRunStart: (() => void) | undefined;
  /** Loaded with the first transcript, not before the run starts. */
  private transcriptReader: Promise<typeof import('../report/load-transcripts.js')> | undefined;
  private readonly root: string;
  private readonly preload: boolean;
  /** One transcript read at a time: a background queue, not hundreds of open files. */
  private loading: Promise<unknown> = Promise.resolve();
  /** The duplicate-declaration reasons in loadErrors, and each run error's count, so far. */
  private duplicateReasons: string[] = [];
  private readonly runErrorCounts = new Map<string, { error: SerializedError; times: number }>();
  /** The unhandled errors each run's end handed over, to tell a late one (addLateErrors) apart. */
  private readonly handedOver = new WeakSet<object>();

  constructor(options: {
    root: string;
    onTrial?: (record: TrialRecord, ms: number) => void;
    /** When vitest starts the trials. */
    onRunStart?: () => void;
    preloadTranscripts?: boolean;
  }) {
    this.root = options.root;
    this.onTrial = options.onTrial;
    this.onRunStart = options.onRunStart;
    this.preload = options.preloadTranscripts === true;
  }

  onTestRunStart(): void {
    this.onRunStart?.();
  }

  onTestCaseResult(testCase: TestCase): void {
    // Tests sit in describe(<suite>) > describe(<task id> <title>), as defineTask lays them out.
    const taskSuite = testCase.parent.type === 'suite' ? testCase.parent : undefined;
    const taskId = taskSuite?.name.split(' ')[0];
    if (taskId) this.knownTasks.add(taskId);
    if (taskSuite?.parent.type === 'suite') this.knownSuites.add(taskSuite.parent.name);
    const variant = testCase.name.split(' ')[0];
    if (variant) this.knownVariants.add(variant);
    const suite = taskSuite?.parent.type === 'suite' ? taskSuite.parent.name : undefined;
    if (suite && taskId && variant) this.declared.add(keyOf({ suite, task: taskId, variant }));
    const cases = taskSuite?.meta().cases;
    if (suite && taskId && cases) this.cases.set(JSON.stringify([suite, taskId]), cases);
    if (suite && taskId && taskSuite) {
      const seen = this.declarations.get(taskId.toLowerCase()) ?? new Map();
      seen.set(taskSuite.id, {
        task: taskId,
        suite,
        file: relative(this.root, testCase.module.moduleId),
      });
      this.declarations.set(taskId.toLowerCase(), seen);
    }
    const meta = testCase.meta();
    if (meta.scripted) this.scripted.push(...meta.scripted);
    if (!meta.trial) {
      const result = testCase.result();
      if (result.state === 'failed') {
        const message = result.errors[0]?.message ?? 'unknown error';
        const trial = /^(\S+)(?: (\S+))? trial (\d+)$/.exec(testCase.name);
        if (suite && taskId && trial) {
          this.unfinished.push(unfinishedTrial(testCase.fullName, message, suite, taskId, trial));
        } else {
          this.loadErrors.push(redactForReport(`${testCase.fullName} ${withoutVerdict(message)}`));
        }
      }
      return;
    }
    if (meta.floors && !this.floors.has(meta.trial.task))
      this.floors.set(meta.trial.task, meta.floors);
    const result = testCase.result();
    let record = meta.trial;
    if (result.state === 'failed' && record.outcome === 'passed') {
      // Failed after its record was written (e.g. the test timed out): not the agent's verdict.
      record = {
        ...record,
        outcome: 'errored',
        messages: result.errors.map((error) => error.message),
      };
    }
    this.records.push(record);
    if (this.preload && meta.transcript) {
      // Decoded in the worker from what the trial replayed: not read and checked a second time.
      this.transcripts.set(record, Promise.resolve(meta.transcript));
    } else if (this.preload) {
      if (!this.transcriptReader) {
        this.transcriptReader = import('../report/load-transcripts.js');
        // A failure surfaces through each transcript's promise, not as an unhandled rejection.
        this.transcriptReader.catch(() => {});
      }
      const reader = this.transcriptReader;
      const loaded = this.loading.then(async () =>
        (await reader).loadTranscript(record, this.root),
      );
      this.loading = loaded;
      this.transcripts.set(record, loaded);
    }
    this.onTrial?.(record, testCase.diagnostic()?.duration ?? 0);
  }

  /**
   * Called once per vitest run. A --task run that falls back (run-evals.ts) makes two runs with
   * this reporter, the second over the files the first left out: the reasons are made again
   * over both, each once.
   */
  onTestRunEnd(_modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<SerializedError>): void {
    const earlier = new Set(this.duplicateReasons);
    const kept = this.loadErrors.filter((reason) => !earlier.has(reason));
    this.duplicateReasons = [...this.declarations.values()]
      .filter((seen) => seen.size > 1)
      .map((seen) => duplicateTaskReason([...seen.values()]));
    this.loadErrors.splice(0, Infinity, ...kept, ...this.duplicateReasons);
    for (const error of errors) this.handedOver.add(error);
    this.countRunErrors(errors);
  }

  /**
   * Errors vitest caught after it reported the run's end (`vitest.state.getUnhandledErrors()`
   * once it closed): raised while its worker was ending, they reached the main thread too late
   * for onTestRunEnd. Each one that was not handed over there is a reason as well.
   */
  addLateErrors(errors: ReadonlyArray<unknown>): void {
    const late = errors.filter(
      (error): error is SerializedError =>
        typeof error === 'object' && error !== null && !this.handedOver.has(error),
    );
    for (const error of late) this.handedOver.add(error);
    this.countRunErrors(late);
  }

  private countRunErrors(errors: ReadonlyArray<SerializedError>): void {
    // The same error from many trials is one reason with a count, not hundreds of lines.
    for (const error of errors) {
      const key = describeRunError(error, this.root);
      const seen = this.runErrorCounts.get(key);
      if (seen) seen.times += 1;
      else this.runErrorCounts.set(key, { error, times: 1 });
    }
    this.runErrors.splice(
      0,
      Infinity,
      ...[...this.runErrorCounts.values()].map(({ error, times }) =>
        redactForReport(describeRunError(error, this.root, times)),
      ),
    );
  }

  /** A hook of a describe block that failed, e.g. a task's wait for its trials' stray timers. */
  onTestSuiteResult(testSuite: TestSuite): void {
    const file = relative(this.root, testSuite.module.moduleId);
    for (const error of testSuite.errors()) {
      this.loadErrors.push(redactForReport(`${file}: ${testSuite.fullName}: ${error.message}`));
    }
  }

  onTestModuleEnd(testModule: TestModule): void {
    for (const error of testModule.errors()) {
      const file = relative(this.root, testModule.moduleId);
      this.loadErrors.push(redactForReport(`${file} failed to load: ${error.message}`));
      // A rubric or human-labels file the task names is missing or wrong: bad input (exit 2).
      if ((error as { code?: unknown }).code === 'task_input') {
        this.inputErrors.push(redactForReport(`${file}: ${firstLine(error.message)}`));
      }
    }
  }
}

/** A trial test that failed before its record was written: the trial ran, no verdict. */
export interface UnfinishedTrial {
  suite: string;
  task: string;
  variant: string;
  /** The dataset case, for a task over cases. */
  case?: string;
  trial: number;
  /** What happened, short: "timed out after 8000 ms". */
  problem: string;
  /** The gate reason, naming the test. */
  reason: string;
}

const TIMED_OUT = /^Test timed out in (\d+)ms/;

/** vitest's "Test timed out in 8000ms. If this is a long-running test..." in our words. */
function withoutVerdict(message: string): string {
  const timedOut = TIMED_OUT.exec(message);
  return timedOut
    ? `timed out after ${timedOut[1]} ms while it ran, without a verdict (a hang in the agent, a tool or the check, or testTimeout in the vitest config is too short)`
    : `failed without a verdict: ${message}`;
}

function unfinishedTrial(
  fullName: string,
  message: string,
  suite: string,
  task: string,
  [, variant = '', testCase, trial = '0']: RegExpExecArray,
): UnfinishedTrial {
  const timedOut = TIMED_OUT.exec(message);
  return {
    suite,
    task,
    variant,
    ...(testCase !== undefined && { case: testCase }),
    trial: Number(trial),
    problem: redactForReport(
      timedOut ? `timed out after ${timedOut[1]} ms` : `failed without a verdict: ${message}`,
    ),
    reason: redactForReport(`${fullName} ${withoutVerdict(message)}`),
  };
}

/**
 * One unhandled error as a gate reason: its kind and message, where it was thrown (the first
 * stack frame outside Node and node_modules), the test that was running, and the fix.
 */
export function describeRunError(error: SerializedError, root: string, times = 1): string {
  const kind = typeof error.type === 'string' ? error.type.toLowerCase() : 'unhandled error';
  const count = times === 1 ? '' : `, ${times} times`;
  const name = error.name && error.name !== 'Error' ? `${error.name}: ` : '';
  const message = firstLine(error.message || describeValue(error));
  // vitest wraps a worker's failure: its cause says what went wrong.
  const cause = error.cause?.message ? `; caused by: ${firstLine(error.cause.message)}` : '';
  const frame = (error.stack ?? '')
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line.startsWith('at ') && !/node:|node_modules/.test(line));
  const where = [
    frame && `thrown ${frame.replace(`${root}/`, '').replace('file://', '')}`,
    typeof error.VITEST_TEST_NAME === 'string' &&
      `while "${error.VITEST_TEST_NAME}" ran or after it`,
    typeof error.VITEST_TEST_PATH === 'string' && `in ${relative(root, error.VITEST_TEST_PATH)}`,
  ].filter(Boolean);
  return `${kind} during the run${count}: ${name}${message}${cause}${where.length > 0 ? ` (${where.join(', ')})` : ''}`;
}

/** Two or more declarations of one task id, as a gate reason. */
function duplicateTaskReason(
  declarations: ReadonlyArray<{ task: string; suite: string; file: string }>,
): string {
  const task = declarations[0]!.task;
  const suites = [...new Set(declarations.map((declaration) => declaration.suite))].sort();
  const files = [...new Set(declarations.map((declaration) => declaration.file))].sort();
  const where =
    suites.length > 1
      ? `in suites ${suites.join(' and ')}`
      : `${declarations.length} times in suite ${suites[0]}`;
  return `task id '${task}' is declared ${where} (${files.join(', ')}): they share fixtures/${task}/ (one records over the other) and floors; rename one of them (ids that differ only in case count as the same)`;
}

/** What a gate reason adds to an unhandled error's description. */
export const RUN_ERROR_ADVICE =
  "It happened outside any trial's verdict and may have let a trial pass: await or catch it in the agent, tool or check that starts it";

const firstLine = (text: string) => {
  const line = text.split('\n')[0] ?? '';
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
};

/** What was thrown when it was not an Error: its own fields (a rejected `{ code: 42 }`). */
function describeValue(error: SerializedError): string {
  const fields = Object.entries(error).filter(
    ([key]) =>
      !key.startsWith('VITEST_') && !['type', 'stack', 'stacks', 'name', 'message'].includes(key),
  );
  if (fields.length === 0)
    return 'a non-Error value with no fields (e.g. a rejection with undefined)';
  try {
    return `a non-Error value ${JSON.stringify(Object.fromEntries(fields))}`;
  } catch {
    return `a non-Error value with fields ${fields.map(([key]) => key).join(', ')}`;
  }
}
