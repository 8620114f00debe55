import { describe, expect, it } from 'vitest';
import { controlCharacters } from '../../core/testing/control-characters.js';
import { buildReport } from './build-report.js';
import { renderTerminal, visibleLength, wrap } from './terminal.js';
import { makeRecord, sampleRecords } from './testing/records.js';

const report = buildReport({
  records: sampleRecords(),
  trials: 3,
  floors: [],
  reference: buildReport({ records: sampleRecords(), trials: 3, floors: [], generatedAt: 'then' }),
  generatedAt: '2026-01-09T10:00:00.000Z',
});

/** Long names, messages and commands everywhere, to push every table past 100 columns. */
function widerReport() {
  const records = ['baseline', 'upgraded-with-hooks-and-permissions'].flatMap((variant) =>
    [1, 2, 3].map((trial) =>
      makeRecord({
        suite: 'refund-desk-regression-suite',
        task: 'T12-refund-overdue-with-masked-card',
        variant,
        trial,
        outcome: trial === 3 ? 'stale' : 'failed',
        messages: [
          `expected the answer to mention ${'the overdue refund '.repeat(12)}\nsecond line`,
        ],
        tracePath: `runs/${'deeply/nested/'.repeat(10)}trace.jsonl`,
        stats: { ...makeRecord().stats!, inputTokens: 123_456_789, toolMs: 98_765_432 },
      }),
    ),
  );
  return buildReport({ records, trials: 3, floors: [], generatedAt: '2026-01-09T10:00:00.000Z' });
}

describe('renderTerminal', () => {
  it('keeps every line within 100 columns, even with long names and messages', () => {
    for (const [subject, color] of [
      [report, false],
      [widerReport(), false],
      [widerReport(), true],
    ] as const) {
      const lines = renderTerminal(subject, { color }).split('\n');
      const widest = Math.max(...lines.map(visibleLength));
      expect(widest).toBeLessThanOrEqual(100);
    }
  });

  // Issue 33: task and variant names were cut with … to fit a column.
  it('never cuts a task, variant or suite name: a long one wraps onto the next line of its cell', () => {
    const text = renderTerminal(widerReport());
    expect(text).not.toMatch(/…\s*│/);
    // The first column of the scores table, its lines joined, holds the whole task name.
    const scores = text.slice(text.indexOf('Scores'), text.indexOf('95% intervals'));
    const firstColumn = scores
      .split('\n')
      .filter((line) => line.startsWith('│'))
      .map((line) => line.split('│')[1]!.trim())
      .join('');
    expect(firstColumn).toContain('T12-refund-overdue-with-masked-card');
  });

  it('shows 95% intervals beside the scores and marks deltas not distinguishable at this n', () => {
    const text = renderTerminal(report);
    expect(text).toContain('95% intervals (Wilson; Δ: Newcombe)');
    expect(text).toMatch(
      /│ T1 +│ upgraded +│ 1\.00 \[0\.44, 1\.00\] │ 1\.00 \[0\.08, 1\.00\] │ \+0\.67 \[−0\.06, \+0\.94\] ~ │/,
    );
    expect(text).toContain('~ = not distinguishable at this n');
    expect(text).toMatch(/refund-desk upgraded vs baseline \(2 tasks, paired\): Δ pass@1 \+0\.83/);
  });

  it('names the host in the header and the trials of each origin in a mixed run', () => {
    const mixed = buildReport({
      records: [
        makeRecord({ trial: 1, source: 'live', host: 'api.anthropic.com' }),
        makeRecord({ trial: 2, source: 'live', host: '127.0.0.1:8787' }),
      ],
      trials: 2,
      floors: [],
      generatedAt: 'now',
    });
    const text = renderTerminal(mixed);
    expect(text).toContain('Recorded from (mixed):');
    expect(text).toContain('  - live Anthropic API (api.anthropic.com): T1 upgraded 1');
    expect(text).toContain(
      '  - live-labelled, recorded against a local server at 127.0.0.1, not the public API: T1',
    );
  });

  it('shows the fixture source, the gate and the score table', () => {
    const text = renderTerminal(report);
    expect(text).toContain('Fixtures: SIMULATOR (scripted stand-in, not the live API');
    expect(text).toContain('Gate: FAILED');
    expect(text).toContain('  - 1 stale fixture (re-record them): T3 upgraded trial 3');
    expect(text).toMatch(
      /│ T1 +│ upgraded +│ 3\/3 +│ +1\.00 │ +1\.00 │ +1\.00 │ +\+0\.67 │ +\+1\.00 │/,
    );
    expect(text).toMatch(/│ T6 +│ upgraded +│ 0\/0 \(3 missing\) +│ +— │/);
  });

  it('prints each re-record command once, and failed trials with messages and traces', () => {
    const text = renderTerminal(report);
    const command = 'npm run record -- --task T6 --variant upgraded --trial 1,2,3 --simulated';
    expect(text.split(command)).toHaveLength(2);
    expect(text).toContain(
      '  T1 baseline trial 1: failed\n    expected "Overdue"\n    trace: runs/T1-baseline-1.jsonl',
    );
    expect(text).toContain('Compared with the reference (then)');
  });

  it('shows control characters from records as visible escapes, keeping only its own colours', () => {
    const esc = '\u001b';
    const evil = buildReport({
      records: [
        makeRecord({
          task: `T1${esc}]52;c;Y3VybA==\u0007`,
          variant: `baseline${esc}[2J`,
          outcome: 'failed',
          messages: [
            `expected "Overdue"\nanswer: refund ${esc}]0;PWNED\u0007${esc}[8m hidden\rforged`,
          ],
          tracePath: `runs/${esc}[2J.jsonl`,
        }),
      ],
      trials: 1,
      floors: [],
      generatedAt: '2026-01-09T10:00:00.000Z',
    });
    const plain = renderTerminal(evil);
    expect(controlCharacters(plain)).toEqual([]);
    expect(plain).toContain('answer: refund \\u001b]0;PWNED\\u0007\\u001b[8m hidden\\rforged');
    expect(plain).toContain('T1\\u001b]52;c;Y3VybA==\\u0007');
    expect(plain).toContain('runs/\\u001b[2J.jsonl');
    const colored = renderTerminal(evil, { color: true });
    const colours = new RegExp(`${esc}\\[\\d+m`, 'g');
    expect(controlCharacters(colored.replaceAll(colours, ''))).toEqual([]);
  });

  it('uses ANSI colours only when asked', () => {
    expect(renderTerminal(report)).not.toContain('\u001b[');
    expect(renderTerminal(report, { color: true })).toContain('\u001b[31mGate: FAILED\u001b[0m');
  });
});

describe('wrap', () => {
  it('breaks at words, indents continuations and marks broken shell commands', () => {
    expect(wrap('  alpha beta gamma', { width: 12, indent: '    ' })).toEqual([
      '  alpha beta',
      '    gamma',
    ]);
    expect(wrap('npm run record -- --task T1', { width: 16, indent: '  ', shell: true })).toEqual([
      'npm run record \\',
      '  -- --task T1',
    ]);
  });

  // A long case id (or a --case list) was cut across lines, and the pasted command recorded
  // cases that do not exist.
  it('never cuts a word of a shell command: it stays whole on its own line, to paste as one', () => {
    const id = `refund-${'x'.repeat(120)}`;
    const lines = wrap(`  npm run record -- --task T8 --variant v1 --case ${id},b --trial 1`, {
      indent: '    ',
      shell: true,
    });
    expect(lines).toEqual([
      '  npm run record -- --task T8 --variant v1 --case \\',
      `    ${id},b \\`,
      '    --trial 1',
    ]);
  });

  it('cuts a word longer than the line instead of overflowing', () => {
    expect(wrap('abcdefghij', { width: 4 })).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrap('ab abcdefghij', { width: 4, indent: '  ' })).toEqual([
      'ab',
      '  ab',
      '  cd',
      '  ef',
      '  gh',
      '  ij',
    ]);
    // An indent as wide as the line still leaves room for the text.
    expect(wrap('a bcd', { width: 2, indent: '    ' })).toEqual(['a', 'bc', 'd']);
  });

  it('never cuts inside an ANSI style, which takes no columns', () => {
    const red = (text: string) => `\u001b[31m${text}\u001b[0m`;
    const lines = wrap(red('abcdefghij'), { width: 4 });
    expect(lines).toEqual(['\u001b[31mabcd', 'efgh', 'ij\u001b[0m']);
  });

  it('cuts a 1 MB word into lines in one pass, keeping every character', () => {
    const word = 'x'.repeat(1_000_000);
    const lines = wrap(`see ${word} end`, { width: 100, indent: '  ' });
    expect(lines[0]).toBe('see');
    expect(lines.every((line) => line.length <= 100)).toBe(true);
    expect(lines.join('').replaceAll(' ', '')).toBe(`see${word}end`);
  });
});
