import { describe, expect, it } from 'vitest';
import type { TrialRecord } from '../spec/trial-record.js';
import { absentRows, compareReports, keyOf } from './compare.js';
import { evaluateGate, type TaskFloor } from './gate.js';
import { summarizeTasks } from './summarize.js';
import { makeRecord } from './testing/records.js';
import { listProvenance } from './trial-lists.js';

/** Cassette hashes per trial: `same` replays the reference's cassettes, `other` re-recorded ones. */
function hashed(records: TrialRecord[], cassettes: string): TrialRecord[] {
  return records.map((record) => ({
    ...record,
    cassetteHash: `${cassettes}:${record.task}/${record.variant}/${record.trial}`,
  }));
}

/** `declared`: the rows task files still declare ('T4 upgraded'); every run row by default. */
function gate(
  records: TrialRecord[],
  floors: TaskFloor[] = [],
  reference?: TrialRecord[],
  options: {
    cassettes?: 'same' | 'other';
    alpha?: number;
    strictFloors?: boolean;
    declared?: string[];
  } = {},
) {
  const current = hashed(records, options.cassettes ?? 'same');
  const summaries = summarizeTasks(current);
  const declared = new Set(
    [...summaries, ...(options.declared ?? []).map(rowOf)].map((row) =>
      keyOf({ ...row, suite: 'refund-desk' }),
    ),
  );
  const before = reference && {
    generatedAt: 'then',
    tasks: summarizeTasks(reference),
    trialProvenance: listProvenance(hashed(reference, 'same')),
  };
  const comparison = before
    ? compareReports(
        before,
        { generatedAt: 'now', tasks: summaries, trialProvenance: listProvenance(current) },
        { ...(options.alpha !== undefined && { alpha: options.alpha }), declared },
      )
    : undefined;
  const gone = before ? absentRows(before, { tasks: [] }, declared).gone : [];
  return evaluateGate({
    records: current,
    summaries,
    floors,
    gone,
    ...(comparison ? { comparison } : {}),
    ...(options.strictFloors ? { strictFloors: true } : {}),
  });
}

function rowOf(label: string) {
  const [task = '', variant = ''] = label.split(' ');
  return { task, variant };
}

function trials(task: string, variant: string, outcomes: string): TrialRecord[] {
  return [...outcomes].map((letter, index) =>
    makeRecord({ task, variant, trial: index + 1, outcome: letter === 'P' ? 'passed' : 'failed' }),
  );
}

describe('evaluateGate', () => {
  it('passes a clean run whose baseline failed every trial', () => {
    const records = [...trials('T1', 'baseline', 'FFF'), ...trials('T1', 'upgraded', 'PPP')];
    expect(gate(records)).toEqual({ passed: true, reasons: [], warnings: [] });
  });

  it('fails on stale, missing and errored trials and lists each of them', () => {
    const result = gate([
      ...trials('T1', 'upgraded', 'PP'),
      makeRecord({ task: 'T5', trial: 2, outcome: 'stale' }),
      makeRecord({ task: 'T5', trial: 3, outcome: 'stale' }),
      makeRecord({ task: 'T6', trial: 1, outcome: 'missing' }),
      makeRecord({ task: 'T2', variant: 'baseline', trial: 1, outcome: 'errored' }),
    ]);
    expect(result.passed).toBe(false);
    expect(result.reasons).toEqual([
      '2 stale fixtures (re-record them): T5 upgraded trial 2, T5 upgraded trial 3',
      '1 missing fixture (record them): T6 upgraded trial 1',
      '1 errored trial (see the failed trials): T2 baseline trial 1',
    ]);
  });

  it('fails when a declared floor does not hold, naming task, variant, metric and values', () => {
    const records = [...trials('T1', 'upgraded', 'PPF'), ...trials('T2', 'upgraded', 'PPP')];
    const result = gate(records, [
      { task: 'T1', floor: { variant: 'upgraded', passAt1: 0.9, passHatK: 0.5 } },
      { task: 'T2', floor: { variant: 'upgraded', passAt1: 1, passHatK: 1 } },
    ]);
    expect(result).toEqual({
      passed: false,
      reasons: [
        'T1 upgraded pass@1 0.67 is below the floor 0.90',
        'T1 upgraded pass^3 0.00 is below the floor 0.50',
      ],
      warnings: [],
    });
  });

  it('fails a floor for a variant that never ran or counted no trial', () => {
    const records = [makeRecord({ task: 'T6', outcome: 'missing' })];
    const result = gate(records, [
      { task: 'T6', floor: { variant: 'upgraded', passAt1: 1 } },
      { task: 'T9', floor: { variant: 'upgraded', passAt1: 1 } },
    ]);
    expect(result.reasons).toContain(
      'T6 upgraded pass@1 has no value (no counted trial); floor 1.00',
    );
    expect(result.reasons).toContain('T9 upgraded declares a floor but has no trials');
  });

  it('fails on any drop when the same cassettes were replayed (every difference is deterministic)', () => {
    const reference = [...trials('T3', 'upgraded', 'PPP'), ...trials('T1', 'baseline', 'PPF')];
    const current = [...trials('T3', 'upgraded', 'PPF'), ...trials('T1', 'baseline', 'PFF')];
    expect(gate(current, [], reference).reasons).toEqual([
      'T1 baseline pass@1 0.67 -> 0.33 (lower than the reference)',
      'T3 upgraded pass@1 1.00 -> 0.67 (lower than the reference)',
      'T3 upgraded pass^3 1.00 -> 0.00 (lower than the reference)',
    ]);
  });

  it('passes when the comparison only shows improvements, new tasks or tasks not run', () => {
    const reference = [...trials('T3', 'upgraded', 'PFF'), ...trials('T4', 'upgraded', 'P')];
    const current = [...trials('T3', 'upgraded', 'PPP'), ...trials('T5', 'upgraded', 'F')];
    // T4 still has its task file: it was only not selected (--task T3,T5).
    expect(gate(current, [], reference, { declared: ['T4 upgraded'] })).toEqual({
      passed: true,
      reasons: [],
      warnings: [],
    });
  });

  it('fails when a task of the reference no longer exists, naming it and the fix', () => {
    const reference = [...trials('T3', 'upgraded', 'PPP'), ...trials('T4', 'upgraded', 'PPP')];
    const current = trials('T3', 'upgraded', 'PPP');
    expect(gate(current, [], reference)).toEqual({
      passed: false,
      reasons: [
        'T4 upgraded (suite refund-desk) is in the reference but no eval task declares it any more: restore its task file, or accept the removal with npm run eval -- --update-reference and commit reports/reference.json',
      ],
      warnings: [],
    });
  });

  it('fails a run without any trial', () => {
    expect(gate([])).toEqual({ passed: false, reasons: ['no trial ran'], warnings: [] });
  });

  it('on other cassettes, warns about a noisy drop (3/3 -> 2/3) with the trials that would detect it', () => {
    const result = gate(trials('T1', 'upgraded', 'PPF'), [], trials('T1', 'upgraded', 'PPP'), {
      cassettes: 'other',
    });
    expect(result.passed).toBe(true);
    expect(result.reasons).toEqual([]);
    expect(result.warnings).toEqual([
      'T1 upgraded pass@1 1.00 -> 0.67 (not significant at this n: 3/3 -> 2/3, p = 0.500, Holm-adjusted over 1 row 0.500, alpha 0.05; about 19 trials per side would detect a drop this size 80% of the time)',
      'T1 upgraded pass^3 1.00 -> 0.00 (not significant at this n: 3/3 -> 2/3, p = 0.500, Holm-adjusted over 1 row 0.500, alpha 0.05; about 19 trials per side would detect a drop this size 80% of the time)',
    ]);
  });

  it('on other cassettes, fails on a significant drop (27/30 -> 20/30)', () => {
    const reference = trials('T1', 'upgraded', `${'P'.repeat(27)}${'F'.repeat(3)}`);
    const current = trials('T1', 'upgraded', `${'P'.repeat(20)}${'F'.repeat(10)}`);
    const result = gate(current, [], reference, { cassettes: 'other' });
    expect(result.passed).toBe(false);
    expect(result.reasons[0]).toBe(
      'T1 upgraded pass@1 0.90 -> 0.67 (significant drop, 27/30 -> 20/30, p = 0.029, Holm-adjusted over 1 row 0.029, alpha 0.05)',
    );
    expect(result.warnings).toEqual([]);
    // The same drop is only a warning at a stricter alpha.
    const strict = gate(current, [], reference, { cassettes: 'other', alpha: 0.01 });
    expect(strict.passed).toBe(true);
    expect(strict.warnings).toHaveLength(1);
  });

  it('says a pass^k-only drop is not one the gate tests, with the trial counts that made it', () => {
    // The break: such a warning said "more than 1000 trials per side" for a pass@1 that had not
    // dropped. 4/6 -> 2/3: pass@1 0.67 both sides, pass^3 0.20 -> 0.00 only because n differs.
    const result = gate(trials('T1', 'upgraded', 'PPF'), [], trials('T1', 'upgraded', 'PPPPFF'), {
      cassettes: 'other',
    });
    expect(result.passed).toBe(true);
    expect(result.warnings).toEqual([
      'T1 upgraded pass^3 0.20 -> 0.00 (pass@1 did not drop, 4/6 -> 2/3: pass^3 is estimated from 6 and 3 trials, and moves with the number counted; the gate tests pass@1, and no number of trials would make this a drop)',
    ]);
  });

  it('keeps a 20-row run on other cassettes within alpha: Holm over every row compared', () => {
    // One row at p = 0.029 fails alone; among 20 rows tested (19 unchanged), it is noise.
    const reference = trials('T1', 'upgraded', `${'P'.repeat(27)}${'F'.repeat(3)}`);
    const current = trials('T1', 'upgraded', `${'P'.repeat(20)}${'F'.repeat(10)}`);
    const others = (records: TrialRecord[]) =>
      Array.from({ length: 19 }, (_, index) =>
        records.map((record) => ({ ...record, task: `T${index + 10}` })),
      ).flat();
    const alone = gate(current, [], reference, { cassettes: 'other' });
    expect(alone.passed).toBe(false);
    const many = gate(
      [...current, ...others(reference)],
      [],
      [...reference, ...others(reference)],
      {
        cassettes: 'other',
      },
    );
    expect(many.passed).toBe(true);
    expect(many.warnings[0]).toMatch(
      /^T1 upgraded pass@1 0\.90 -> 0\.67 \(not significant at this n: 27\/30 -> 20\/30, p = 0\.029, Holm-adjusted over 20 rows 0\.575, alpha 0\.05; about \d+ trials per side would detect/,
    );
  });

  it('compares runs with different trial counts through the test instead of refusing', () => {
    const reference = trials('T1', 'upgraded', 'PPPPPPPPPP');
    const result = gate(trials('T1', 'upgraded', 'PPF'), [], reference);
    expect(result.passed).toBe(true);
    expect(result.warnings[0]).toMatch(
      /^T1 upgraded pass@1 1\.00 -> 0\.67 \(not significant at this n: 10\/10 -> 2\/3/,
    );
  });

  it('checks floors against the lower bound with strictFloors', () => {
    const records = trials('T1', 'upgraded', 'PPP');
    const floors = [{ task: 'T1', floor: { variant: 'upgraded', passAt1: 0.6 } }];
    expect(gate(records, floors).passed).toBe(true);
    const strict = gate(records, floors, undefined, { strictFloors: true });
    expect(strict.reasons).toEqual([
      'T1 upgraded pass@1 1.00 has the lower bound 0.44, below the floor 0.60 (--strict-floors)',
    ]);
    const thirty = trials('T1', 'upgraded', 'P'.repeat(30));
    expect(gate(thirty, floors, undefined, { strictFloors: true }).passed).toBe(true);
  });
});

describe('evaluateGate on the changes against the base', () => {
  const change = (path: string, kind: 'edited' | 'curated' | 're-recorded') => ({
    path,
    status: 'modified' as const,
    class: kind,
    ...(kind === 'edited' && { why: 'its content changed while its recordedAt did not' }),
    commits: [],
  });
  const changes = (fixtures: ReturnType<typeof change>[]) => ({
    ref: 'main',
    commit: 'a'.repeat(40),
    reference: { status: 'same' as const, rows: [], lowered: false, allowed: false },
    compared: 'base' as const,
    fixtures,
    fixturesLeftOut: 0,
  });
  const run = (fixtures: ReturnType<typeof change>[]) =>
    evaluateGate({
      records: [makeRecord()],
      summaries: summarizeTasks([makeRecord()]),
      floors: [],
      changes: changes(fixtures),
    });

  // The break (issue 33): a hand-edited cassette with its hash recomputed passed the gate.
  it('fails on a cassette changed but not re-recorded, naming each, and not on a curated or re-recorded one', () => {
    const edited = run([
      change('fixtures/T1/upgraded/trial-1.json', 'edited'),
      change('fixtures/T1/upgraded/trial-2.json', 'curated'),
      change('fixtures/T1/upgraded/trial-3.json', 're-recorded'),
    ]);
    expect(edited.passed).toBe(false);
    expect(edited.reasons).toEqual([
      '1 cassette changed but not re-recorded (fixtures/T1/upgraded/trial-1.json): re-record it, restore it (git checkout <base> -- <file>), or, for a deliberate edit, name who made it and why in its meta.curated (see docs/ci.md)',
    ]);
    expect(run([change('fixtures/T1/upgraded/trial-2.json', 'curated')]).passed).toBe(true);
  });
});
