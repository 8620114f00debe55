import { badge, type Child, el } from './dom.js';
import { NONE, rate } from './format.js';
import { detailOf, keyOf, label, type TrialDetail, trials } from './page-data.js';
import { traceOf } from './trace.js';
import { longText, transcriptOf } from './transcript.js';

/** The case's expected answer, as the record gives it (text, or indented JSON). */
function expectedOf(d: TrialDetail): HTMLElement | null {
  if (d.expected === undefined) return null;
  return el(
    'div',
    { cls: 'message', 'data-testid': 'expected' },
    el('strong', { text: `Expected${d.case ? ` (case ${d.case})` : ''}` }),
    longText('pre', {}, d.expected),
  );
}

/** Each judged check's verdict and votes, then every sample's: its label and score, its reason or error. */
function judgeVotesOf(d: TrialDetail): HTMLElement | null {
  if (!d.judgments?.length) return null;
  const box = el(
    'div',
    { cls: 'message', 'data-testid': 'judge-votes' },
    el('strong', { text: 'Judge votes' }),
  );
  for (const j of d.judgments) {
    const votes = `${j.votes.pass} pass, ${j.votes.fail} fail; mean score ${rate(j.score)}, threshold ${rate(j.threshold)}`;
    box.appendChild(el('div', { text: `${j.check}: ${j.verdict} (${votes})` }));
    const list = el('ul', null);
    for (const s of j.samples) {
      const vote = s.error
        ? `error: ${s.error}`
        : `${s.label || NONE}${s.score === undefined ? '' : ` ${rate(s.score)}`}${s.reasoning ? ` (${s.reasoning})` : ''}`;
      list.appendChild(el('li', { text: `${s.model} #${s.sample}: ${vote}` }));
    }
    box.appendChild(list);
  }
  return box;
}

/** What two compared trials can differ in, each kind matched by position: texts, tool calls, the answer. */
const COMPARED = [
  '[data-testid="assertion"] pre',
  '[data-testid="expected"] pre',
  '.user',
  '.turn .text',
  '.tool',
  '[data-testid="final-answer"]',
];

/** Mark (class "differs") each part of one pane whose text is not the other pane's at the same place. */
export function markDifferences(left: Element, right: Element): void {
  for (const selector of COMPARED) {
    const a = left.querySelectorAll(selector),
      b = right.querySelectorAll(selector);
    for (let at = 0; at < Math.max(a.length, b.length); at += 1) {
      if (a[at] && b[at] && a[at]?.textContent === b[at]?.textContent) continue;
      a[at]?.classList.add('differs');
      b[at]?.classList.add('differs');
    }
  }
}

/** Why the trial did not pass: its assertion or error, or its stale fixture's diff and command. */
function whyNot(t: (typeof trials)[number], d: TrialDetail): HTMLElement | null {
  if (
    (t.outcome === 'failed' || t.outcome === 'errored' || t.outcome === 'judge_error') &&
    d.messages.length
  ) {
    const title =
      t.outcome === 'failed' ? 'Assertion' : t.outcome === 'judge_error' ? 'Judge error' : 'Error';
    return el(
      'div',
      { cls: 'message', 'data-testid': 'assertion' },
      el('strong', { text: title }),
      longText('pre', {}, d.messages.join('\n\n')),
    );
  }
  if (t.outcome !== 'stale' && t.outcome !== 'missing') return null;
  return el(
    'div',
    { cls: 'stale-box', 'data-testid': 'stale' },
    el('strong', {
      text: t.outcome === 'stale' ? 'Stale fixture: where the request diverged' : 'Missing fixture',
    }),
    longText('pre', {}, d.messages.join('\n\n')),
    d.rerecordCommand
      ? el('div', null, 'Re-record with: ', el('code', { text: d.rerecordCommand }))
      : null,
  );
}

/**
 * One trial: its header (with `actions`), its assertion or stale diff, expected answer and judge
 * votes, its transcript and its trace; "loading" while the parser has not reached its details.
 */
export function trialPane(at: number, actions: readonly Child[]): HTMLElement {
  const t = trials[at]!;
  const pane = el('article', { cls: 'pane', 'data-testid': 'transcript', 'data-trial': label(t) });
  const link = el('a', {
    href: `#trial=${keyOf(t)}`,
    'data-testid': 'link',
    title: 'a link to this trial',
    text: 'link',
  });
  pane.appendChild(
    el(
      'div',
      { cls: 'pane-head' },
      el('h2', null, `${label(t)} `, badge(t.outcome)),
      link,
      ...actions,
    ),
  );
  const d = detailOf(at);
  if (!d) {
    pane.appendChild(
      el('p', {
        cls: 'muted',
        'data-testid': 'loading',
        text: 'Loading this trial\u2019s transcript\u2026',
      }),
    );
    return pane;
  }
  const meta = [
    d.title,
    d.source ? `fixtures: ${d.source}` : '',
    d.model ? `model: ${d.model}` : '',
    d.cost ? `cost: ${d.cost}` : '',
    d.status ? `stop: ${d.status}` : '',
    d.fixture || '',
    d.tracePath || '',
  ];
  pane.appendChild(el('div', { cls: 'muted meta', text: meta.filter(Boolean).join(' \u00b7 ') }));
  const transcript = transcriptOf(d);
  for (const part of [whyNot(t, d), expectedOf(d), judgeVotesOf(d), transcript])
    if (part) pane.appendChild(part);
  const trace = traceOf(d, transcript.getAttribute('data-testid') === 'unknown-format');
  if (trace) pane.appendChild(trace);
  return pane;
}
