import type {
  Reporter,
  SerializedError,
  TestCase,
  TestModule,
  TestSpecification,
  TestSuite,
} from 'vitest/node';
import type { Floor, TrialRecord } from '../spec/trial-record.js';
import { EvalReporter } from './reporter.js';

/** What a watch run has seen so far: the latest records of every eval file, and this run's problems. */
export interface WatchState {
  /** Every eval file's records from the last run that ran it. */
  records: TrialRecord[];
  floors: ReadonlyMap<string, Floor[]>;
  declared: ReadonlySet<string>;
  /** The latest run's reporter: its load, run and input errors, and what it declared. */
  run: EvalReporter;
  /** The eval files the latest run ran. */
  ran: string[];
}

/**
 * The eval reporter of `eval --watch`: each vitest run (the first, then each re-run of the
 * files a change touched) gets a fresh EvalReporter, and the records of the files it ran
 * replace those files' earlier ones. `onRunDone` gets the whole picture after each run.
 */
export class WatchReporter implements Reporter {
  private run: EvalReporter;
  private ran: string[] = [];
  private readonly byFile = new Map<string, TrialRecord[]>();
  private readonly thisRun = new Map<string, TrialRecord[]>();
  private readonly floors = new Map<string, Floor[]>();
  private readonly declared = new Set<string>();
  /** Each task id (lower-cased) with the eval files that declared it: a cassette's re-run. */
  private readonly taskFiles = new Map<string, Set<string>>();
  /** The file whose change started the run under way (none for the first run). */
  private trigger: string | undefined;
  private state: WatchState | undefined;

  constructor(
    private readonly root: string,
    private readonly onRunDone: (state: WatchState, trigger: string | undefined) => Promise<void>,
  ) {
    this.run = new EvalReporter({ root });
  }

  /** The state after the latest run. */
  latest(): WatchState {
    if (!this.state) throw new Error('eval --watch: no run has ended yet');
    return this.state;
  }

  onWatcherRerun(_files: string[], trigger?: string): void {
    this.trigger = trigger;
  }

  /** The eval files that declared `task` so far (empty when none did). */
  filesOf(task: string): string[] {
    return [...(this.taskFiles.get(task.toLowerCase()) ?? [])];
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.run = new EvalReporter({ root: this.root });
    this.thisRun.clear();
    this.ran = [...new Set(specifications.map((specification) => specification.moduleId))];
    this.run.onTestRunStart();
  }

  onTestCaseResult(testCase: TestCase): void {
    const before = this.run.records.length;
    this.run.onTestCaseResult(testCase);
    const file = testCase.module.moduleId;
    const records = this.thisRun.get(file) ?? [];
    records.push(...this.run.records.slice(before));
    this.thisRun.set(file, records);
    const taskSuite = testCase.parent.type === 'suite' ? testCase.parent : undefined;
    const task = taskSuite?.name.split(' ')[0]?.toLowerCase();
    if (task) this.taskFiles.set(task, (this.taskFiles.get(task) ?? new Set()).add(file));
  }

  onTestSuiteResult(testSuite: TestSuite): void {
    this.run.onTestSuiteResult(testSuite);
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.run.onTestModuleEnd(testModule);
  }

  async onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    errors: ReadonlyArray<SerializedError>,
  ): Promise<void> {
    this.run.onTestRunEnd(modules, errors);
    for (const file of new Set([...this.ran, ...modules.map((module) => module.moduleId)])) {
      this.byFile.set(file, this.thisRun.get(file) ?? []);
    }
    for (const [task, floors] of this.run.floors) this.floors.set(task, floors);
    for (const key of this.run.declared) this.declared.add(key);
    this.state = {
      records: [...this.byFile.values()].flat(),
      floors: this.floors,
      declared: this.declared,
      run: this.run,
      ran: this.ran,
    };
    await this.onRunDone(this.state, this.trigger);
  }
}
