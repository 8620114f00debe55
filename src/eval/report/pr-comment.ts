import { escapeText } from '../../core/markdown-text.js';
import { keyOf } from './compare.js';
import { costPrCommentSection } from './cost-sections.js';
import { decisionsMarkdown } from './decisions-view.js';
import { formatChange } from './format.js';
import { dropTestCell } from './format-statistics.js';
import { changesMarkdown } from './markdown-changes.js';
import { table } from './markdown-table.js';
import { buildReportModel, type ReportModel, type ScoreRow } from './report-model.js';
import type { EvalReport } from './report-schema.js';

/** The first line of the comment: how the workflow finds it again to update it in place. */
export const PR_COMMENT_MARKER = '<!-- harness-evals-pr-comment -->';

/** GitHub takes 65,536 characters in a comment: the body stays under this, dropping detail first. */
export const MAX_PR_COMMENT_CHARS = 60_000;

export interface PrCommentLinks {
  /** The uploaded report artifact (actions/upload-artifact's `artifact-url`). */
  artifactUrl?: string;
  /** The workflow run, for the job summary. */
  runUrl?: string;
}

const FLAG: Record<string, string> = {
  dropped: '▼ dropped',
  improved: '▲ improved',
  new: 'new',
  gone: 'gone',
};

const MAX_LISTED = 10;

/**
 * A pull request's comment from an eval report: the gate and its reasons, the rows that moved
 * against the reference with this run's 95% intervals, what the PR changed against its base
 * (`--reference-from`, its cassette inventory folded), the scores folded, the detection limit, and links to the HTML report and
 * the run. Starts with PR_COMMENT_MARKER, stays under MAX_PR_COMMENT_CHARS.
 *
 * @example writeFile('comment.md', renderPrComment(report, { artifactUrl }))
 */
export function renderPrComment(
  input: EvalReport | ReportModel,
  links: PrCommentLinks = {},
): string {
  const model = 'header' in input ? input : buildReportModel(input);
  // Never cut, and first: the decision and why, what moved, then the cassettes a reviewer must
  // look at (the body is cut from the end).
  const head = [
    PR_COMMENT_MARKER,
    header(model, links),
    gate(model),
    movedRows(model),
    decisionsMarkdown(model.decisions, escapeText, table),
    attention(model, links),
  ];
  const sections = [
    changes(model, 30),
    scores(model),
    detection(model),
    costPrCommentSection(model.cost),
  ];
  let body = [...head, ...sections].filter(Boolean).join('\n\n');
  // Too long (many changed cassettes, many rows): the folded scores go, then most cassettes.
  if (body.length > MAX_PR_COMMENT_CHARS) {
    const cost = costPrCommentSection(model.cost, true);
    body = [...head, changes(model, 5), detection(model), cost].filter(Boolean).join('\n\n');
  }
  if (body.length > MAX_PR_COMMENT_CHARS) {
    body = `${body.slice(0, MAX_PR_COMMENT_CHARS)}\n\n… (cut: the whole report is in the job summary and the artifact)`;
  }
  return `${body}\n`;
}

function header(model: ReportModel, links: PrCommentLinks): string {
  const verdict = model.gate.passed ? '✅ gate passed' : '❌ gate failed';
  const linked = [
    links.artifactUrl && `[HTML report with every transcript](${safeUrl(links.artifactUrl)})`,
    links.runUrl && `[job summary](${safeUrl(links.runUrl)})`,
  ].filter(Boolean);
  const { header: h } = model;
  return [
    `## harness-evals: ${verdict}`,
    '',
    `> Fixtures: **${escapeText(h.source.label)}** (${escapeText(h.source.note)}) · ${h.trials} trials per task and variant · ${escapeText(h.models.join(', ') || '—')}`,
    ...(linked.length > 0 ? ['', linked.join(' · ')] : []),
  ].join('\n');
}

/** Only an https URL is linked, and nothing in it can close the link. */
function safeUrl(url: string): string {
  return /^https:\/\/[^\s()<>]+$/.test(url) ? url : 'about:blank';
}

function listed(title: string, lines: readonly string[]): string[] {
  if (lines.length === 0) return [];
  const shown = lines.slice(0, MAX_LISTED).map((line) => `- ${escapeText(line)}`);
  const more = lines.length > MAX_LISTED ? [`- … and ${lines.length - MAX_LISTED} more`] : [];
  return ['', title, '', ...shown, ...more];
}

/** Room for the cassettes a reviewer must look at; past it, their count and where the list is. */
const MAX_ATTENTION_CHARS = 40_000;

/**
 * The cassettes edited by hand with a curated entry, then those changed but not re-recorded:
 * every one listed, or, when they do not fit, how many and where the complete list is.
 */
function attention(model: ReportModel, links: PrCommentLinks): string {
  const view = model.changes;
  if (!view) return '';
  const where = `the complete list is \`changes.fixtures\` (class \`%s\`) in reports/latest.json, in the ${links.artifactUrl ? `[report artifact](${safeUrl(links.artifactUrl)})` : "job's report artifact"}`;
  const section = (title: string, lines: readonly string[], kind: string) => {
    if (lines.length === 0) return [];
    const all = [
      `### ${title} (${lines.length})`,
      '',
      ...lines.map((line) => `- ${escapeText(line)}`),
    ];
    if (all.join('\n').length <= MAX_ATTENTION_CHARS / 2) return all;
    return [
      `### ${title} (${lines.length})`,
      '',
      `${lines.length} ${kind}: too many to list here; ${where.replace('%s', kind === 'cassettes edited by hand' ? 'curated' : 'edited')}.`,
    ];
  };
  return [
    ...section(
      '✋ Cassettes edited by hand, with who and why',
      view.curated,
      'cassettes edited by hand',
    ),
    ...(view.curated.length > 0 && view.edited.length > 0 ? [''] : []),
    ...section(
      '❌ Cassettes changed but not re-recorded',
      view.edited,
      'cassettes changed but not re-recorded',
    ),
  ].join('\n');
}

function gate(model: ReportModel): string {
  return [
    ...listed('**Why the gate failed**', model.gate.reasons),
    ...listed('**Warnings** (noise at this n, not failing)', model.gate.warnings),
  ]
    .join('\n')
    .trim();
}

function changes(model: ReportModel, maxFixtures: number): string {
  return model.changes ? changesMarkdown(model.changes, '###', maxFixtures, false, true) : '';
}

/** The rows whose pass@1 or pass^k moved against the reference, with this run's intervals. */
function movedRows(model: ReportModel): string {
  const { comparison } = model;
  if (!comparison) return '_No reference to compare with._';
  const rows = new Map(model.scores.rows.map((row) => [keyOf(row), row]));
  const moved = comparison.entries.filter((entry) => entry.flag !== 'same');
  if (moved.length === 0) {
    return `### Against the reference\n\nNo row moved (${comparison.entries.length} compared).`;
  }
  const cells = moved.map((entry) => {
    const row: ScoreRow | undefined = rows.get(keyOf(entry));
    return [
      escapeText(entry.task),
      escapeText(entry.variant),
      `${formatChange(entry.passAt1.before, entry.passAt1.after)}${row ? ` ${row.withIntervals.passAt1.replace(/^\S+ /, '')}` : ''}`,
      formatChange(entry.passHatK.before, entry.passHatK.after),
      FLAG[entry.flag] ?? entry.flag,
      escapeText(dropTestCell(entry, comparison.alpha, model.referenceDecisions[keyOf(entry)])),
    ];
  });
  return [
    '### Against the reference',
    '',
    `Rows that moved (${moved.length} of ${comparison.entries.length}); pass@1 with this run's 95% interval.`,
    '',
    table(['Task', 'Variant', 'pass@1 [95%]', 'pass^k', 'Change', 'Cassettes / test'], cells),
  ].join('\n');
}

function scores(model: ReportModel): string {
  const { k, rows } = model.scores;
  const cells = rows.map((row) => [
    escapeText(row.task),
    escapeText(row.variant),
    row.counted,
    row.withIntervals.passAt1,
    row.withIntervals.passHatK || '—',
    row.withIntervals.delta,
  ]);
  return [
    '<details>',
    `<summary>Scores with 95% intervals (${rows.length} rows)</summary>`,
    '',
    table(['Task', 'Variant', 'c/n', 'pass@1', `pass^${k}`, 'Δ pass@1'], cells),
    '',
    '</details>',
  ].join('\n');
}

function detection(model: ReportModel): string {
  return model.detection.rows.length > 0 ? `<sub>${escapeText(model.detection.summary)}</sub>` : '';
}
