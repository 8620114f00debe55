import { createRequire } from 'node:module';
import type TableType from 'cli-table3';
import { escapeText } from '../core/markdown-text.js';
import { escapeForTerminal } from '../core/terminal-text.js';
import type { RunSummary, ToolSummary, TraceReport } from './summarize.js';

const TOOL_HEAD = ['Tool', 'Calls', 'Mean ms', 'p95 ms', 'Error rate', 'Decisions'];
const RUN_HEAD = [
  'Run',
  'Task',
  'Variant',
  'Status',
  'Steps',
  'Tools',
  'Tokens in',
  'Tokens out',
  'Retries',
];

// Every cell and problem line comes from trace files: escaped, so no byte of them reaches the
// terminal as a control sequence, and a line break cannot forge a row.
function toolRow(tool: ToolSummary): string[] {
  return escapeCells([
    tool.tool,
    String(tool.calls),
    tool.meanMs.toFixed(0),
    String(tool.p95Ms),
    `${(tool.errorRate * 100).toFixed(0)}%`,
    tool.decisions.map(([decision, count]) => `${decision} ${count}`).join(', '),
  ]);
}

function runRow(run: RunSummary): string[] {
  const retries =
    run.fallbacks > 0 ? `${run.retries} (+${run.fallbacks} fallback)` : String(run.retries);
  const status = run.resumes > 0 ? `${run.status} (resumed ${run.resumes}x)` : run.status;
  return escapeCells([
    run.file,
    run.task ?? '',
    run.variant,
    status,
    String(run.steps),
    String(run.toolCalls),
    String(run.inputTokens),
    String(run.outputTokens),
    retries,
  ]);
}

function escapeCells(cells: string[]): string[] {
  return cells.map((cell) => escapeForTerminal(cell));
}

const RIGHT_TOOLS = [1, 2, 3, 4];
const RIGHT_RUNS = [4, 5, 6, 7];

// cli-table3 (CommonJS) is required when a table is first drawn: the package entry brings
// this module into every eval worker, which draws none (about 10 ms of its start-up).
const require = createRequire(import.meta.url);
let Table: typeof TableType | undefined;

function table(head: string[], rows: string[][], right: number[]): string {
  Table ??= require('cli-table3') as typeof TableType;
  const output = new Table({
    head,
    colAligns: head.map((_, index) => (right.includes(index) ? 'right' : 'left')),
    style: { head: [], border: [], compact: true },
  });
  for (const row of rows) output.push(row);
  return output.toString();
}

/** Two terminal tables, tools then runs, and the unreadable lines, if any. */
export function formatTraceTables(report: TraceReport): string {
  const parts = [
    `Tools (${report.tools.reduce((sum, tool) => sum + tool.calls, 0)} calls)`,
    table(TOOL_HEAD, report.tools.map(toolRow), RIGHT_TOOLS),
    '',
    `Runs (${report.runs.length})`,
    table(RUN_HEAD, report.runs.map(runRow), RIGHT_RUNS),
  ];
  return [...parts, ...problemLines(report)].join('\n');
}

/** The same two tables as GitHub markdown. */
export function formatTraceMarkdown(report: TraceReport): string {
  const md = (head: string[], rows: string[][], right: number[]) => [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, index) => (right.includes(index) ? '---:' : '---')).join('|')}|`,
    ...rows.map((row) => `| ${row.map(escapeText).join(' | ')} |`),
  ];
  return [
    '## Tools',
    '',
    ...md(TOOL_HEAD, report.tools.map(toolRow), RIGHT_TOOLS),
    '',
    '## Runs',
    '',
    ...md(RUN_HEAD, report.runs.map(runRow), RIGHT_RUNS),
    ...problemLines(report, '- ').map(escapeText),
    '',
  ].join('\n');
}

function problemLines(report: TraceReport, bullet = '  '): string[] {
  const lines = report.runs.flatMap((run) =>
    run.problems.map((problem) => `${bullet}${escapeForTerminal(`${run.file} ${problem}`)}`),
  );
  return lines.length === 0 ? [] : ['', 'Unreadable lines (skipped):', ...lines];
}
