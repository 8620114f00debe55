import { el, table } from './dom.js';
import { NONE } from './format.js';
import { model } from './page-data.js';

/**
 * The page's header: provenance, models, the gate and its reasons, and what changed since the
 * reference run (curated and edited cassettes, changed inputs, rate changes).
 */
export function renderHeader(root: HTMLElement): void {
  const h = model.header;
  root.appendChild(el('h1', { text: 'Eval report' }));
  root.appendChild(
    el(
      'div',
      { 'data-testid': 'provenance' },
      el('strong', { text: `Fixtures: ${h.source.label}` }),
      ` (${h.source.note})`,
    ),
  );
  const origins = h.origins;
  if (origins.mixed) {
    root.appendChild(el('div', { cls: 'muted', text: 'Recorded from (mixed):' }));
    root.appendChild(
      el('ul', { cls: 'muted' }, ...origins.lines.map((line) => el('li', { text: line }))),
    );
  } else if (origins.origins.length) {
    root.appendChild(el('div', { cls: 'muted', text: `Recorded from: ${origins.origins[0]}` }));
  }
  root.appendChild(
    el('div', {
      cls: 'muted',
      text: `Model: ${h.models.join(', ') || NONE} \u00b7 Date: ${h.generatedAt} \u00b7 Trials: ${h.trials} per task and variant \u00b7 Suite: ${h.suites.join(', ') || NONE}`,
    }),
  );
  root.appendChild(
    el('div', {
      'data-testid': 'gate',
      cls: model.gate.passed ? 'gate-pass' : 'gate-fail',
      text: model.gate.passed ? 'Gate: passed' : 'Gate: FAILED',
    }),
  );
  listOf(root, null, model.gate.reasons);
  listOf(root, 'Warnings (noise at this n, not failing):', model.gate.warnings ?? []);
  renderChanges(root);
}

function renderChanges(root: HTMLElement): void {
  const c = model.changes;
  if (!c) return;
  const box = el('section', { 'data-testid': 'changes' }, el('h2', { text: c.title }));
  for (const line of c.reference) box.appendChild(el('p', { cls: 'muted', text: line }));
  listOf(box, 'Edited by hand (curated), with who and why', c.curated ?? []);
  listOf(box, 'Changed but not re-recorded (fails the gate)', c.edited ?? []);
  listOf(box, 'Task files, datasets, rubrics and labels changed', c.inputs ?? []);
  if (c.rows.length) {
    box.appendChild(
      table(['Task', 'Variant', 'Change', 'pass@1', 'pass^k'], c.rows, [], 'reference-changes'),
    );
  }
  const shown = c.fixtures.slice(0, 200);
  if (shown.length) {
    box.appendChild(
      table(['Cassette', 'Status', 'Before', 'After', 'Changed in'], shown, [], 'fixture-changes'),
    );
  }
  const more = c.more + c.fixtures.length - shown.length;
  if (more > 0) {
    box.appendChild(
      el('p', {
        cls: 'muted',
        text: `\u2026 and ${more} more changed cassettes (reports/latest.json).`,
      }),
    );
  }
  root.appendChild(box);
}

/** A titled list of lines; nothing when there are none. */
export function listOf(root: HTMLElement, title: string | null, lines: readonly string[]): void {
  if (!lines.length) return;
  if (title) root.appendChild(el('div', { cls: 'muted', text: title }));
  root.appendChild(el('ul', null, ...lines.map((line) => el('li', { text: line }))));
}
