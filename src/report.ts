/**
 * `harness-evals/report`: the report model and its renderers, the statistics behind the
 * intervals and the gate, and transcripts. Kept out of the main entry, which every eval
 * worker loads.
 */
export { buildReport } from './eval/report/build-report.js';
export { type HtmlTrial, renderHtml } from './eval/report/html.js';
export { loadTranscripts, type TrialTranscript } from './eval/report/load-transcripts.js';
export { renderMarkdown } from './eval/report/markdown.js';
export { buildReportModel, type ReportModel } from './eval/report/report-model.js';
export { type EvalReport, EvalReportSchema, parseReport } from './eval/report/report-schema.js';
export { renderTerminal } from './eval/report/terminal.js';
export type { Floor, TrialRecord } from './eval/spec/trial-record.js';
// intervals and the drop test the reports use; judge agreement
export {
  bootstrapStatistic,
  cohenKappa,
  countsOf,
  fleissKappa,
  flipRate,
} from './eval/stats/agreement.js';
export { bootstrapMean } from './eval/stats/bootstrap.js';
export {
  type DifferenceEstimate,
  pairedDifference,
  rateDifference,
} from './eval/stats/difference.js';
export { type DropTest, dropPValue } from './eval/stats/drop-test.js';
export { holmAdjusted } from './eval/stats/holm.js';
export type { Interval } from './eval/stats/interval.js';
export { detectableDrop, dropPower, trialsNeeded } from './eval/stats/power.js';
export { pooledRate, suitePassKIntervals } from './eval/stats/suite-interval.js';
export type { PassCounts } from './eval/stats/two-level-bootstrap.js';
export { passKIntervals, wilsonInterval } from './eval/stats/wilson.js';
export { decodeTranscript, type Transcript } from './eval/transcript/transcript.js';
