import { resolve } from 'node:path';
import { writeFileAtomic } from '../../../core/atomic-write.js';
import { errorMessage } from '../../../core/errors.js';
import { shownUrl } from '../../../core/shown-url.js';
import type { TrialRecord } from '../../spec/trial-record.js';
import { loadTranscripts } from '../load-transcripts.js';
import type { EvalReport } from '../report-schema.js';
import { byTrial } from '../trial-lists.js';
import { encodeSpans, spansOf } from './export-trace.js';
import { runSpan } from './run-spans.js';
import { type SendTraceOptions, sendTrace } from './send-trace.js';

/** Where a run's trace goes, and what it holds: `eval --otel FILE`, `--otel-endpoint URL`. */
export interface OtelTarget {
  /** Write the OTLP/JSON request here (relative to the project). */
  file?: string;
  /** POST it here: the traces URL itself (`http://host:4318/v1/traces`). */
  endpoint?: SendTraceOptions;
  /** `--otel-content`: prompts, answers, tool arguments and results, redacted like reports. */
  content: boolean;
  /** The resource's service.name (OTEL_SERVICE_NAME, default harness-evals). */
  serviceName: string;
  startedAt: Date;
  /** `--shard i/n`, as written. */
  shard?: string;
}

export interface OtelExport {
  /** One line per thing done: "wrote FILE (N spans)", "sent N spans to URL". */
  done: string[];
  /** One line per thing that failed, naming the fix. */
  problems: string[];
}

/**
 * Export a finished run (or merge, or shard) as one OpenTelemetry trace: built from the trial
 * records and the cassettes the report is built from, after the run, never from inside it.
 *
 * @example
 * const { done, problems } = await exportRunTrace(target, { projectDir, records, report });
 */
export async function exportRunTrace(
  target: OtelTarget,
  run: { projectDir: string; records: readonly TrialRecord[]; report: EvalReport },
): Promise<OtelExport> {
  const records = [...run.records].sort(byTrial);
  const transcripts = await loadTranscripts(records, run.projectDir);
  const plan = runSpan({
    report: run.report,
    trials: records.map((record, index) => ({ record, transcript: transcripts[index]! })),
    startedAt: target.startedAt,
    endedAt: new Date(),
    content: target.content,
    ...(target.shard && { shard: target.shard }),
  });
  const spans = await spansOf(plan, { 'service.name': target.serviceName });
  const count = `${spans.length} spans`;
  const done: string[] = [];
  const problems: string[] = [];
  if (target.file !== undefined) {
    try {
      await writeFileAtomic(resolve(run.projectDir, target.file), encodeSpans(spans, 'json'));
      done.push(`wrote ${target.file} (${count})`);
    } catch (error) {
      problems.push(`--otel ${target.file} was not written: ${errorMessage(error)}`);
    }
  }
  if (target.endpoint) {
    const body = encodeSpans(spans, target.endpoint.encoding);
    const problem = await sendTrace(body, target.endpoint);
    if (problem) problems.push(problem);
    else done.push(`sent ${count} to ${shownUrl(target.endpoint.url)}`);
  }
  return { done, problems };
}
