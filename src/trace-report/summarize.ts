import type { ReportEvent, TraceFile } from './read-traces.js';

export interface ToolSummary {
  tool: string;
  calls: number;
  meanMs: number;
  p95Ms: number;
  /** Share of calls that ended with is_error (0..1). */
  errorRate: number;
  /** How many calls got each decision, most frequent first. */
  decisions: Array<[decision: string, count: number]>;
}

export interface RunSummary {
  file: string;
  runId: string;
  task: string | undefined;
  variant: string;
  model: string;
  /** The last run_end's status; `unfinished` when the trace stops without one (a crash). */
  status: string;
  steps: number;
  toolCalls: number;
  /** Input tokens billed, cache reads and writes included, over every model call in the file. */
  inputTokens: number;
  outputTokens: number;
  retries: number;
  fallbacks: number;
  /** Resumes that continued the run (reading back a finished run does not count). */
  resumes: number;
  problems: string[];
}

export interface TraceReport {
  tools: ToolSummary[];
  runs: RunSummary[];
}

/** Per tool and per run figures of a set of traces. */
export function summarizeTraces(traces: readonly TraceFile[]): TraceReport {
  const byTool = new Map<string, Array<Extract<ReportEvent, { type: 'tool_call' }>>>();
  for (const trace of traces) {
    for (const event of trace.events) {
      if (event.type !== 'tool_call') continue;
      // Appended in place: copying the list per call made a long run quadratic (40,000 calls: 110 s).
      const calls = byTool.get(event.tool);
      if (calls) calls.push(event);
      else byTool.set(event.tool, [event]);
    }
  }
  const tools = [...byTool.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tool, calls]): ToolSummary => {
      const times = calls.map((call) => call.ms);
      const decisions = new Map<string, number>();
      for (const call of calls)
        decisions.set(call.decision, (decisions.get(call.decision) ?? 0) + 1);
      return {
        tool,
        calls: calls.length,
        meanMs: times.reduce((sum, ms) => sum + ms, 0) / times.length,
        p95Ms: nearestRank(times, 95),
        errorRate: calls.filter((call) => call.is_error).length / calls.length,
        decisions: [...decisions.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
      };
    });
  return { tools, runs: traces.map(summarizeRun) };
}

function summarizeRun(trace: TraceFile): RunSummary {
  const start = trace.events.find((event) => event.type === 'run_start');
  let status = 'unfinished';
  let steps = 0;
  const count = (type: ReportEvent['type']) =>
    trace.events.filter((event) => event.type === type).length;
  let resumes = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let modelCalls = 0;
  let ended: { input: number; output: number } | undefined;
  for (const event of trace.events) {
    if (event.type === 'model_call') {
      modelCalls += 1;
      inputTokens += event.input_tokens + event.cache_read_tokens + event.cache_write_tokens;
      outputTokens += event.output_tokens;
      if (event.role === undefined) steps = Math.max(steps, event.step);
    }
    // A resume reopens the run (a finished one is only read back); a later run_end settles it.
    if (event.type === 'run_resume' && event.state !== 'finished') {
      status = 'unfinished';
      resumes += 1;
    }
    if (event.type === 'run_end') {
      status = event.status;
      steps = Math.max(steps, event.stats.steps);
      const { stats } = event;
      ended = {
        input:
          (stats.inputTokens ?? 0) + (stats.cacheReadTokens ?? 0) + (stats.cacheWriteTokens ?? 0),
        output: stats.outputTokens ?? 0,
      };
    }
  }
  // An adapter agent's trace has no model_call events: its run_end's stats hold its tokens.
  if (modelCalls === 0 && ended) {
    inputTokens = ended.input;
    outputTokens = ended.output;
  }
  return {
    file: trace.file,
    runId: start?.type === 'run_start' ? start.run_id : '?',
    task: start?.type === 'run_start' ? start.task : undefined,
    variant: start?.type === 'run_start' ? start.variant : '?',
    model: start?.type === 'run_start' ? start.model : '?',
    status,
    steps,
    toolCalls: count('tool_call'),
    inputTokens,
    outputTokens,
    retries: count('model_retry'),
    fallbacks: count('model_fallback'),
    resumes,
    problems: trace.problems,
  };
}

/** Nearest-rank percentile of a non-empty list. */
export function nearestRank(values: readonly number[], percentile: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((percentile / 100) * sorted.length);
  return sorted[Math.max(rank, 1) - 1] ?? 0;
}
