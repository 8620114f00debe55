import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { keyOf } from './report/compare.js';
import type { TrialTranscript } from './report/load-transcripts.js';
import type { Floor, TrialRecord } from './trial-record.js';

/**
 * Collects one TrialRecord per trial from the tests' metadata. Vitest's own
 * pass/fail is not the verdict: the eval gate is (baseline failures are data).
 */
export class EvalReporter implements Reporter {
  readonly records: TrialRecord[] = [];
  readonly floors = new Map<string, Floor[]>();
  /** Task files that failed to load, named; the other tasks still ran. */
  readonly loadErrors: string[] = [];
  /** Every task id and variant that was declared, selected or not. */
  readonly knownTasks = new Set<string>();
  readonly knownVariants = new Set<string>();
  readonly knownSuites = new Set<string>();
  /** Every (suite, task, variant) declared, selected or not, as `keyOf` keys. */
  readonly declared = new Set<string>();
  /**
   * With `preloadTranscripts`: each record's transcript for the HTML report, read while the
   * other trials still run (this thread is mostly idle then) instead of all at the end.
   */
  readonly transcripts = new Map<TrialRecord, Promise<TrialTranscript>>();
  private readonly onTrial: ((record: TrialRecord, ms: number) => void) | undefined;
  private readonly onRunStart: (() => void) | undefined;
  /** Loaded with the first transcript, not before the run starts. */
  private transcriptReader: Promise<typeof import('./report/load-transcripts.js')> | undefined;
  private readonly root: string;
  private readonly preload: boolean;
  /** One transcript read at a time: a background queue, not hundreds of open files. */
  private loading: Promise<unknown> = Promise.resolve();

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
    const meta = testCase.meta();
    if (!meta.trial) {
      const result = testCase.result();
      if (result.state === 'failed') {
        this.loadErrors.push(
          `${testCase.fullName} failed before it ran: ${result.errors[0]?.message ?? 'unknown error'}`,
        );
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
    if (this.preload) {
      if (!this.transcriptReader) {
        this.transcriptReader = import('./report/load-transcripts.js');
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

  onTestModuleEnd(testModule: TestModule): void {
    for (const error of testModule.errors()) {
      const file = relative(this.root, testModule.moduleId);
      this.loadErrors.push(`${file} failed to load: ${error.message}`);
    }
  }
}
