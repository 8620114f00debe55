import { describe, expect, it } from 'vitest';
import type { TrialRecord } from '../spec/trial-record.js';
import { buildReport } from './build-report.js';
import { renderMarkdown } from './markdown.js';
import { makeRecord, sampleRecords } from './testing/records.js';

function render(records: TrialRecord[], reference?: TrialRecord[]): string {
  const referenceReport = reference
    ? buildReport({
        records: reference,
        trials: 3,
        floors: [],
        generatedAt: '2025-12-31T00:00:00Z',
      })
    : undefined;
  return renderMarkdown(
    buildReport({
      records,
      trials: 3,
      floors: [],
      generatedAt: '2026-01-09T10:00:00.000Z',
      ...(referenceReport ? { reference: referenceReport } : {}),
    }),
  );
}

describe('renderMarkdown', () => {
  const markdown = render(sampleRecords());

  it('names the fixture source, model, date and trials in the header', () => {
    expect(markdown).toContain(
      '> Fixtures: **simulator** (scripted stand-in, not the live API; token counts are estimates)',
    );
    expect(markdown).toContain(
      '> Model: `claude-sonnet-4-5` · Date: 2026-01-09T10:00:00.000Z · Trials: 3 per task and variant',
    );
    const live = render([makeRecord({ source: 'live', host: 'api.anthropic.com' })]);
    expect(live).toContain('> Fixtures: **live** (recorded from the live Anthropic API)');
    expect(live).toContain('> Recorded from: live Anthropic API (api.anthropic.com)');
    expect(live).not.toContain('simulator');
  });

  it('does not call a cassette recorded against 127.0.0.1 the public API, and names mixed origins', () => {
    const local = render([makeRecord({ source: 'live', host: '127.0.0.1:4010' })]);
    expect(local).toContain(
      '> Recorded from: live-labelled, recorded against a local server at 127.0.0.1, not the public API',
    );
    const mixed = render([
      makeRecord({ trial: 1, source: 'live', host: 'api.anthropic.com' }),
      makeRecord({ trial: 2, source: 'simulator', host: '127.0.0.1:4010' }),
      makeRecord({ trial: 3, source: 'simulator', host: '127.0.0.1:4011' }),
    ]);
    expect(mixed).toContain('> Recorded from (mixed):');
    expect(mixed).toContain('> - live Anthropic API (api.anthropic.com): T1 upgraded 1');
    expect(mixed).toContain('> - simulator at 127.0.0.1: T1 upgraded 2-3');
  });

  it('states the gate verdict with its reasons', () => {
    expect(markdown).toContain('## Gate: ❌ failed');
    expect(markdown).toContain('- 1 stale fixture (re-record them): T3 upgraded trial 3');
    expect(render([makeRecord()])).toContain('## Gate: ✅ passed');
  });

  it('tabulates c/n, rates and deltas per task and variant, with — for what does not exist', () => {
    expect(markdown).toContain(
      '| Task | Title | Variant | c/n | pass@1 | pass@3 | pass^3 | Δ pass@1 vs baseline | Δ pass^k vs baseline |',
    );
    expect(markdown).toContain(
      '| T1 | business rules | upgraded | 3/3 | 1.00 [0.44, 1.00] | 1.00 [0.82, 1.00] | 1.00 [0.08, 1.00] | +0.67 [−0.06, +0.94] ~ | +1.00 |',
    );
    expect(markdown).toContain(
      '| T3 | downstream hang | upgraded | 2/2 (1 stale) | 1.00 [0.34, 1.00] | 1.00 (k=2) | 1.00 (k=2) | +1.00 [+0.07, +1.00] | +1.00 |',
    );
    expect(markdown).toContain(
      '~ = not distinguishable at this n (the 95% interval of the difference includes 0)',
    );
    expect(markdown).toContain(
      '| T6 | missing payment | upgraded | 0/0 (3 missing) | — | — | — |  |  |',
    );
  });

  it('tabulates tokens, steps, latency and tool time, and the suite summary', () => {
    expect(markdown).toContain(
      '| T1 | baseline | 2,000 | 200 | 500 | 0 | 4.0 | 3.0 | 0.7 | 0.0 | 300 | 500 | 20 |',
    );
    expect(markdown).toContain(
      '| refund-desk | upgraded | 2 (left out: T6) | 1.00 [0.56, 1.00] † | 1.00 (k=2) | 1.00 (k=2) | 1,200 | 120 |',
    );
    expect(markdown).toMatch(
      /- refund-desk upgraded vs baseline \(2 tasks, paired\): Δ pass@1 \+0\.83 \\\[\+0\.21, \+1\.00\\\], distinguishable/,
    );
  });

  it('draws pass^k per task and variant as a Mermaid xychart', () => {
    expect(markdown).toContain(
      [
        '```mermaid',
        'xychart-beta',
        '  title "pass^3 per task and variant"',
        '  x-axis ["T1 baseline", "T1 upgraded", "T3 baseline (k=2)", "T3 upgraded (k=2)"]',
        '  y-axis "pass^k" 0 --> 1',
        '  bar [0.00, 1.00, 0.00, 1.00]',
        '```',
      ].join('\n'),
    );
  });

  it('keeps chart labels inside the Mermaid fence and inside their quotes', () => {
    const evil = [
      'X9\n```\n## Gate: passed\n![pixel](https://example.invalid/track.png)\n```mermaid',
      'X8\r```\r%%{init: {"theme": "dark"}}%%',
      'X7 "quoted" `ticks` #quot; <b>bold</b>',
    ];
    const text = render(evil.map((task) => makeRecord({ task, outcome: 'passed' })));
    const start = text.indexOf('```mermaid\n');
    const end = text.indexOf('\n```\n', start);
    const lines = text.slice(start, end + 4).split(/\r\n|\r|\n/);
    // The fence, the chart's five statements and the closing fence: nothing broke a line, and a
    // lone CR (a line ending to CommonMark) in a table cell opened no fence either.
    expect(lines).toHaveLength(7);
    expect(text.match(/^`{3,}/gm)).toHaveLength(2);
    const axis = lines[3] ?? '';
    expect(axis).toMatch(/^ {2}x-axis \["[^"]*"(, "[^"]*")*\]$/);
    expect(axis.match(/"[^"]*"/g)).toHaveLength(evil.length);
    expect(axis).not.toMatch(/[`<>%]/);
    expect(axis).toContain(
      '"X9 #96;#96;#96; #35;#35; Gate: passed ![pixel](https://example.invalid/track.png) #96;#96;#96;mermaid upgraded (k=1)"',
    );
    expect(axis).toContain(
      '"X8 #96;#96;#96; #37;#37;{init: {#quot;theme#quot;: #quot;dark#quot;}}#37;#37; upgraded (k=1)"',
    );
    expect(axis).toContain(
      '"X7 #quot;quoted#quot; #96;ticks#96; #35;quot; #60;b#62;bold#60;/b#62; upgraded (k=1)"',
    );
  });

  it('says so instead of drawing an empty chart', () => {
    const empty = render([makeRecord({ outcome: 'missing' })]);
    expect(empty).toContain('No pass^k to chart: no trial was counted.');
    expect(empty).not.toContain('```mermaid');
  });

  it('lists stale and missing fixtures with their re-record commands', () => {
    expect(markdown).toContain(
      '```sh\nnpm run record -- --task T3 --variant upgraded --trial 3 --simulated\n' +
        'npm run record -- --task T6 --variant upgraded --trial 1,2,3 --simulated\n```',
    );
    expect(markdown).toContain('<summary>T6 upgraded trial 2: missing</summary>');
  });

  it('folds failed trials into details with messages and trace paths', () => {
    expect(markdown).toContain(
      '<details>\n<summary>T1 baseline trial 1: failed</summary>\n\nTrace: `runs/T1-baseline-1.jsonl`\n\n' +
        '```text\nexpected "Overdue"\n```\n\n</details>',
    );
  });

  it('shows before -> after per task with ▲ / ▼ against a reference', () => {
    const reference = [1, 2, 3].map((trial) =>
      makeRecord({ task: 'T3', trial, cassetteHash: `h${trial}` }),
    );
    const current = [1, 2, 3].map((trial) =>
      makeRecord({
        task: 'T3',
        trial,
        outcome: trial === 3 ? 'failed' : 'passed',
        cassetteHash: `h${trial}`,
      }),
    );
    const compared = render(current, reference);
    expect(compared).toContain('## Compared with the reference (2025-12-31T00:00:00Z)');
    expect(compared).toContain(
      '| T3 | upgraded | 1.00 → 0.67 ▼ | 3 | 1.00 → 0.00 ▼ | ▼ dropped | same cassettes |',
    );
    expect(compared).toContain('- T3 upgraded pass^3 1.00 -> 0.00 (lower than the reference)');
    // Re-recorded cassettes: the same drop is noise at n = 3, a warning.
    const rerecorded = render(
      current.map((record) => ({ ...record, cassetteHash: `new-${record.trial}` })),
      reference,
    );
    expect(rerecorded).toContain('## Gate: ✅ passed');
    expect(rerecorded).toContain('| ▼ dropped | undecided at 3 (not likely at this rate) |');
    expect(rerecorded).toContain('**Warnings** (noise at this n, not failing):');
  });

  it('keeps user text from breaking tables and fences', () => {
    const tricky = render([
      makeRecord({ title: 'a | b <i>', outcome: 'failed', messages: ['```\nstill inside'] }),
    ]);
    expect(tricky).toContain('| T1 | a \\| b &lt;i> | upgraded |');
    expect(tricky).toContain('````text\n```\nstill inside\n````');
  });

  it('shows bidirectional controls as escapes in cells and failure blocks', () => {
    const text = render([
      makeRecord({
        title: 'Refund \u202eevil\u202c',
        outcome: 'failed',
        messages: ['answer \u202e1000$\u202c'],
      }),
    ]);
    expect(text).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain('answer \\u202e1000$\\u202c');
  });

  it('masks card numbers and credentials in failure and stale-fixture messages', () => {
    const text = render([
      makeRecord({
        variant: 'baseline',
        outcome: 'failed',
        messages: [
          "the full card number must never reach an answer: expected 'account 6222020200112233445' not to contain '6222020200112233445'",
        ],
      }),
      makeRecord({
        trial: 2,
        outcome: 'stale',
        messages: [
          'fixtures/T1/upgraded/trial-2.json is stale: - recorded: "sk-ant-api03-PLANTED0123456789" + live: {"authorization":"Basic dXNlcg"}',
        ],
      }),
    ]);
    expect(text).toContain("expected 'account 6222****3445' not to contain '6222****3445'");
    expect(text).toContain('"sk-ant-[redacted]"');
    expect(text).toContain('{"authorization":"[redacted]"}');
    for (const secret of ['6222020200112233445', 'PLANTED', 'dXNlcg']) {
      expect(text).not.toContain(secret);
    }
  });
});
