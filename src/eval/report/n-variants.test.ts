import { describe, expect, it } from 'vitest';
import type { TrialRecord } from '../spec/trial-record.js';
import { buildReport } from './build-report.js';
import { htmlModel } from './html-model.js';
import { renderMarkdown } from './markdown.js';
import { buildReportModel } from './report-model.js';
import { parseReport } from './report-schema.js';
import { renderTerminal } from './terminal.js';
import { makeRecord } from './testing/records.js';

/** `passes` of 3 trials for each variant of tasks T1 and T2 (same counts in both tasks). */
function run(passes: Record<string, number>, extra: Partial<TrialRecord> = {}): TrialRecord[] {
  return ['T1', 'T2'].flatMap((task) =>
    Object.entries(passes).flatMap(([variant, passed]) =>
      [1, 2, 3].map((trial) =>
        makeRecord({
          task,
          variant,
          trial,
          outcome: trial <= passed ? 'passed' : 'failed',
          ...extra,
        }),
      ),
    ),
  );
}

const report = (
  records: TrialRecord[],
  options: { deltaReference?: string; trials?: number } = {},
) =>
  buildReport({
    records,
    trials: options.trials ?? 3,
    floors: [],
    generatedAt: '2026-01-09T10:00:00Z',
    ...options,
  });

const row = (built: ReturnType<typeof report>, task: string, variant: string) =>
  built.tasks.find((entry) => entry.task === task && entry.variant === variant)!;

describe('three or more variants', () => {
  const built = report(run({ baseline: 0, 'prompt-a': 3, 'prompt-b': 1 }));

  it('gives every variant but the baseline its Δ against it, with a Newcombe interval', () => {
    expect(row(built, 'T1', 'baseline').delta).toBeUndefined();
    const a = row(built, 'T1', 'prompt-a').delta!;
    const b = row(built, 'T1', 'prompt-b').delta!;
    expect(a).toMatchObject({ against: 'baseline', passAt1: 1, distinguishable: true });
    expect(b).toMatchObject({ against: 'baseline', distinguishable: false });
    expect(b.passAt1).toBeCloseTo(1 / 3, 12);
    expect(a.passAt1Interval?.lower).toBeGreaterThan(0);
  });

  it('gives every variant but the baseline a paired suite Δ', () => {
    const suite = (variant: string) => built.summary.find((entry) => entry.variant === variant)!;
    expect(suite('baseline').delta).toBeUndefined();
    expect(suite('prompt-a').delta).toMatchObject({ against: 'baseline', tasks: 2, passAt1: 1 });
    expect(suite('prompt-b').delta).toMatchObject({ against: 'baseline', tasks: 2 });
  });

  it('shows each Δ and each paired suite Δ in the terminal, markdown, HTML and JSON', () => {
    const terminal = renderTerminal(built);
    expect(terminal).toMatch(/│ T1 +│ prompt-a +│ 3\/3 .*\+1\.00/);
    expect(terminal).toMatch(/│ T1 +│ prompt-b +│ 1\/3 .*\+0\.33/);
    for (const text of [terminal, renderMarkdown(built)]) {
      expect(text).toContain('refund-desk prompt-a vs baseline (2 tasks, paired): Δ pass@1 +1.00');
      expect(text).toContain('refund-desk prompt-b vs baseline (2 tasks, paired): Δ pass@1 +0.33');
    }
    expect(renderMarkdown(built)).toMatch(
      /\| T1 \| business rules \| prompt-b \| 1\/3 .*\| \+0\.33 \[/,
    );
    // The page draws its tables from the model it embeds: each row's Δ and each suite Δ.
    const page = htmlModel(buildReportModel(built));
    const shown = (variant: string) =>
      page.rows.find((entry) => entry.task === 'T1' && entry.variant === variant)?.delta?.text;
    expect(shown('prompt-a')).toBe('+1.00 [+0.21, +1.00]');
    expect(shown('prompt-b')).toBe('+0.33 [−0.29, +0.79] ~');
    expect(shown('baseline')).toBeUndefined();
    expect(page.summary.find((entry) => entry.variant === 'prompt-b')?.delta?.sentence).toContain(
      'refund-desk prompt-b vs baseline (2 tasks, paired)',
    );
    const json = parseReport(JSON.parse(JSON.stringify(built)), 'latest.json');
    expect(json.tasks.filter((entry) => entry.delta).map((entry) => entry.variant)).toEqual([
      'prompt-a',
      'prompt-b',
      'prompt-a',
      'prompt-b',
    ]);
    expect(json.baselines).toEqual({ 'refund-desk': 'baseline' });
  });

  it('measures against the baseline the agent declares', () => {
    const declared = report(run({ prod: 3, canary: 0, next: 3 }, { baseline: 'prod' }));
    expect(row(declared, 'T1', 'canary').delta).toMatchObject({ against: 'prod', passAt1: -1 });
    expect(row(declared, 'T1', 'next').delta).toMatchObject({ against: 'prod', passAt1: 0 });
    expect(row(declared, 'T1', 'prod').delta).toBeUndefined();
  });

  it('--compare A,B measures against A', () => {
    const focused = report(run({ 'prompt-a': 3, 'prompt-b': 1 }), { deltaReference: 'prompt-b' });
    expect(row(focused, 'T1', 'prompt-a').delta).toMatchObject({ against: 'prompt-b' });
    expect(row(focused, 'T1', 'prompt-b').delta).toBeUndefined();
  });
});

describe('no Δ', () => {
  it('says in one line why, when only one variant ran', () => {
    const single = report(run({ v1: 2 }));
    const [note] = buildReportModel(single).scores.notes;
    expect(note).toBe(
      'No Δ for suite refund-desk: only variant v1 ran; a Δ needs a second variant to compare with its baseline (declare one, or select two with --variant)',
    );
    for (const text of [renderTerminal(single), renderMarkdown(single)]) {
      expect(text).toContain('No Δ for suite refund-desk: only variant v1 ran');
    }
    expect(htmlModel(buildReportModel(single)).notes).toEqual([note]);
  });

  it('says in one line why, when the baseline did not run', () => {
    const withoutBaseline = report(run({ 'prompt-a': 2, 'prompt-b': 1 }, { baseline: 'baseline' }));
    expect(buildReportModel(withoutBaseline).scores.notes).toEqual([
      'No Δ for suite refund-desk: its baseline variant baseline did not run; select it too, or pick two variants with --compare A,B',
    ]);
    expect(withoutBaseline.tasks.some((entry) => entry.delta)).toBe(false);
  });
});
