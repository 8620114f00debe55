import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { compareReports, describeNotRun, keyOf } from './compare.js';
import { renderMarkdown } from './markdown.js';
import { summarizeTasks } from './summarize.js';
import { renderTerminal } from './terminal.js';
import { makeRecord } from './testing/records.js';
import { listProvenance } from './trial-lists.js';

/** A report side from outcomes per task: 'T3 upgraded': 'PPF'. */
function side(outcomes: Record<string, string>, generatedAt = '2026-01-01T00:00:00.000Z') {
  const records = Object.entries(outcomes).flatMap(([key, trials]) => {
    const [task = '', variant = ''] = key.split(' ');
    return [...trials].map((letter, index) =>
      makeRecord({
        task,
        variant,
        trial: index + 1,
        outcome: letter === 'P' ? 'passed' : 'failed',
      }),
    );
  });
  return { generatedAt, tasks: summarizeTasks(records) };
}

function flags(reference: Record<string, string>, current: Record<string, string>) {
  const comparison = compareReports(side(reference), side(current));
  return Object.fromEntries(
    comparison.entries.map((entry) => [`${entry.task} ${entry.variant}`, entry.flag]),
  );
}

describe('compareReports', () => {
  it('flags each (task, variant) as dropped, improved, same, new or gone', () => {
    expect(
      flags(
        { 'T1 upgraded': 'PPP', 'T2 upgraded': 'PFF', 'T3 upgraded': 'PP', 'T4 upgraded': 'P' },
        { 'T1 upgraded': 'PPF', 'T2 upgraded': 'PPF', 'T3 upgraded': 'PP', 'T5 upgraded': 'P' },
      ),
    ).toEqual({
      'T1 upgraded': 'dropped',
      'T2 upgraded': 'improved',
      'T3 upgraded': 'same',
      'T5 upgraded': 'new',
      'T4 upgraded': 'gone',
    });
  });

  it('lists rows whose task still exists as not run, not as gone entries', () => {
    const declared = new Set(
      ['T1', 'T2', 'T3'].flatMap((task) =>
        ['baseline', 'upgraded'].map((variant) => keyOf({ suite: 'refund-desk', task, variant })),
      ),
    );
    const reference = side({
      'T1 upgraded': 'PPP',
      'T2 baseline': 'FFF',
      'T2 upgraded': 'PPP',
      'T3 upgraded': 'PP',
      'T9 upgraded': 'PPP',
    });
    const comparison = compareReports(reference, side({ 'T1 upgraded': 'PPP' }), { declared });
    expect(
      comparison.entries.map((entry) => `${entry.task} ${entry.variant} ${entry.flag}`),
    ).toEqual(['T1 upgraded same', 'T9 upgraded gone']);
    expect(comparison.notRun).toEqual([
      { suite: 'refund-desk', task: 'T2', variant: 'baseline' },
      { suite: 'refund-desk', task: 'T2', variant: 'upgraded' },
      { suite: 'refund-desk', task: 'T3', variant: 'upgraded' },
    ]);
    expect(describeNotRun(comparison.notRun ?? [])).toBe('T2 (baseline, upgraded), T3 (upgraded)');
  });

  it('compares pass^k at the largest k both reports have', () => {
    const comparison = compareReports(
      side({ 'T3 upgraded': 'PPP' }),
      side({ 'T3 upgraded': 'PPFPP' }),
    );
    const [entry] = comparison.entries;
    expect(entry?.passHatK.k).toBe(3);
    expect(entry?.passHatK.before).toBe(1);
    expect(entry?.passHatK.after).toBeCloseTo(0.4, 12);
    expect(entry?.passAt1).toEqual({ before: 1, after: 0.8 });
    expect(entry?.flag).toBe('dropped');
  });

  it('calls a row dropped when pass^k fell even though pass@1 rose', () => {
    // 12 of 20 -> 2 of 3: pass@1 0.60 -> 0.67, pass^3 0.19 -> 0.00
    const reference = { 'T1 baseline': 'P'.repeat(12) + 'F'.repeat(8) };
    const comparison = compareReports(side(reference), side({ 'T1 baseline': 'PPF' }));
    const [entry] = comparison.entries;
    expect(entry?.passAt1.after).toBeGreaterThan(entry?.passAt1.before ?? 1);
    expect(entry?.passHatK).toMatchObject({ k: 3, after: 0 });
    expect(entry?.flag).toBe('dropped');
  });

  it('keeps both sides of new and gone rows apart and names the reference date', () => {
    const comparison = compareReports(
      side({ 'T4 upgraded': 'PP' }, '2025-12-31T00:00:00.000Z'),
      side({ 'T5 upgraded': 'PF' }),
    );
    expect(comparison.referenceGeneratedAt).toBe('2025-12-31T00:00:00.000Z');
    expect(comparison.entries).toEqual([
      {
        suite: 'refund-desk',
        task: 'T5',
        variant: 'upgraded',
        flag: 'new',
        passAt1: { before: null, after: 0.5 },
        passHatK: { k: 2, before: null, after: 0 },
        counts: { after: { n: 2, passed: 1 } },
        cassettes: 'different',
      },
      {
        suite: 'refund-desk',
        task: 'T4',
        variant: 'upgraded',
        flag: 'gone',
        passAt1: { before: 1, after: null },
        passHatK: { k: 2, before: 1, after: null },
        counts: { before: { n: 2, passed: 2 } },
        cassettes: 'different',
      },
    ]);
  });

  it('says same cassettes only when every counted trial has the reference hash', () => {
    const records = (hashes: string[]) =>
      hashes.map((hash, index) => makeRecord({ trial: index + 1, cassetteHash: hash }));
    const report = (hashes: string[]) => {
      const trials = records(hashes);
      return {
        generatedAt: 'x',
        tasks: summarizeTasks(trials),
        trialProvenance: listProvenance(trials),
      };
    };
    const entry = (before: string[], after: string[]) =>
      compareReports(report(before), report(after)).entries[0];
    expect(entry(['a', 'b'], ['a', 'b'])?.cassettes).toBe('same');
    expect(entry(['a', 'b'], ['a', 'c'])?.cassettes).toBe('different');
    expect(entry(['a', 'b', 'c'], ['a', 'b'])?.cassettes).toBe('different');
    // Without hashes nothing proves the cassettes are the same.
    expect(
      compareReports(side({ 'T1 upgraded': 'PP' }), side({ 'T1 upgraded': 'PP' })).entries[0]
        ?.cassettes,
    ).toBe('different');
  });

  it('tests a drop only when cassettes differ', () => {
    const [entry] = compareReports(side({ 'T1 upgraded': 'PPP' }), side({ 'T1 upgraded': 'PPF' }), {
      alpha: 0.1,
    }).entries;
    expect(entry?.dropTest).toMatchObject({
      significant: false,
      family: 1,
      adjustedPValue: entry?.dropTest?.pValue,
      // 1.00 -> 0.67 at alpha 0.1: the smallest n per side with 80% power (scipy: 15 gives 0.79).
      trialsNeeded: 16,
    });
    expect(entry?.counts).toEqual({ before: { n: 3, passed: 3 }, after: { n: 3, passed: 2 } });
  });

  it('does not compare a metric that one side lacks, and never calls a row without counted trials the same', () => {
    const reference = side({ 'T6 upgraded': 'PP' });
    const current = {
      generatedAt: 'now',
      tasks: summarizeTasks([makeRecord({ task: 'T6', outcome: 'missing' })]),
    };
    const [entry] = compareReports(reference, current).entries;
    expect(entry).toMatchObject({
      flag: 'uncounted',
      passHatK: { k: null, before: null, after: null },
    });
    const report = buildReport({
      records: [makeRecord({ task: 'T6', outcome: 'missing' })],
      trials: 2,
      floors: [],
      reference: { ...reference, trialProvenance: [] },
      generatedAt: 'now',
    });
    expect(renderTerminal(report)).toMatch(/│ T6 +│ upgraded │ 1\.00 → — +│ .* │ not counted │/);
    expect(renderMarkdown(report)).toMatch(/\| T6 \| upgraded \| 1\.00 → — \|.*\| not counted \|/);
  });

  describe('the drop test family', () => {
    /** A side whose trials carry cassette hashes: 'T2 upgraded': ['PPP', 'h'] hashes h1, h2, h3. */
    function hashed(rows: Record<string, [string, string]>) {
      const records = Object.entries(rows).flatMap(([key, [trials, hash]]) => {
        const [task = '', variant = ''] = key.split(' ');
        return [...trials].map((letter, index) =>
          makeRecord({
            task,
            variant,
            trial: index + 1,
            outcome: letter === 'P' ? 'passed' : 'failed',
            cassetteHash: `${hash}${index + 1}`,
          }),
        );
      });
      return {
        generatedAt: 'x',
        tasks: summarizeTasks(records),
        trialProvenance: listProvenance(records),
      };
    }
    // 3/3 -> 0/3: hypergeometric P(X = 0) = C(3,0)C(3,3)/C(6,3) = 1/20 (scipy fisher_exact 0.05).
    const p = 1 / 20;

    it('holds every variant compared on other cassettes in one family, Holm-adjusted over it', () => {
      const { entries } = compareReports(
        side({ 'T1 baseline': 'PPP', 'T1 upgraded': 'PPP', 'T2 upgraded': 'PPP' }),
        side({ 'T1 baseline': 'FFF', 'T1 upgraded': 'FFF', 'T2 upgraded': 'PPP' }),
      );
      const tests = entries.filter((entry) => entry.dropTest).map((entry) => entry.dropTest);
      // Holm by hand over (1/20, 1/20, 1): max(3 * 1/20, 2 * 1/20) = 0.15 for both drops.
      expect(tests).toEqual([
        expect.objectContaining({
          family: 3,
          pValue: expect.closeTo(p, 12),
          adjustedPValue: expect.closeTo(3 * p, 12),
          significant: false,
        }),
        expect.objectContaining({
          family: 3,
          pValue: expect.closeTo(p, 12),
          adjustedPValue: expect.closeTo(3 * p, 12),
          significant: false,
        }),
      ]);
    });

    it('leaves rows replayed on the same cassettes out of the family', () => {
      const { entries } = compareReports(
        hashed({ 'T1 upgraded': ['PPP', 'a'], 'T2 upgraded': ['PPP', 'b'] }),
        hashed({ 'T1 upgraded': ['FFF', 'c'], 'T2 upgraded': ['PPP', 'b'] }),
      );
      expect(entries.map((entry) => entry.cassettes)).toEqual(['different', 'same']);
      // Alone in its family: 1/20 is not adjusted, and 0.05 <= alpha 0.05 is a drop.
      expect(entries[0]?.dropTest).toEqual({
        pValue: expect.closeTo(p, 12),
        adjustedPValue: expect.closeTo(p, 12),
        family: 1,
        significant: true,
      });
    });

    it('says the trials a noisy drop needs at alpha over the family, not at alpha', () => {
      const { entries } = compareReports(
        side({ 'T1 upgraded': 'PPP', 'T2 upgraded': 'PPP', 'T3 upgraded': 'PPP' }),
        side({ 'T1 upgraded': 'PPF', 'T2 upgraded': 'PPP', 'T3 upgraded': 'PPP' }),
      );
      // 1.00 -> 0.67: the smallest n per side whose exact one-sided Fisher power reaches 0.80 is
      // 23 at 0.05 / 3, 19 at 0.05 (scipy.stats.fisher_exact summed over binom.pmf outcomes).
      expect(entries[0]?.dropTest).toMatchObject({
        family: 3,
        significant: false,
        trialsNeeded: 23,
      });
    });
  });
});
