import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HumanLabel, humanLabelOf, labelStanding } from '../spec/human-labels.js';
import { withLabel } from './label-request.js';
import { labelState } from './label-state.js';
import { parseReport } from './report-schema.js';
import { CHECK, type LabelProject, OLD_HASH, writeLabelProject } from './testing/label-project.js';

const HASH = `sha256:${'a'.repeat(64)}`;

describe('labelStanding', () => {
  it('calls a label of the cassette the trial replays current, of another stale, of none unkeyed', () => {
    expect(labelStanding({ cassette: HASH }, HASH)).toBe('current');
    expect(labelStanding({ cassette: OLD_HASH }, HASH)).toBe('stale');
    expect(labelStanding({}, HASH)).toBe('unkeyed');
  });
});

describe('humanLabelOf', () => {
  const labels = {
    labels: [
      { variant: 'upgraded', trial: 1, label: 'pass' as const, cassette: OLD_HASH },
      { variant: 'upgraded', trial: 2, label: 'fail' as const },
    ],
  };
  it('leaves out a label keyed to another cassette, and keeps hand-written unkeyed ones', () => {
    expect(humanLabelOf(labels, 'upgraded', 1, HASH)).toBeUndefined();
    expect(humanLabelOf(labels, 'upgraded', 1, OLD_HASH)).toBe('pass');
    expect(humanLabelOf(labels, 'upgraded', 2, HASH)).toBe('fail');
    expect(humanLabelOf(labels, 'upgraded', 1)).toBe('pass');
  });
});

describe('labelState', () => {
  let project: LabelProject;
  beforeAll(async () => {
    project = await writeLabelProject(mkdtempSync(join(tmpdir(), 'label-state-')));
  }, 60_000);
  afterAll(() => rmSync(project.dir, { recursive: true, force: true }));

  const report = () => parseReport(readFileSync(project.json, 'utf8'), project.json);

  it('shows a stale label but compares only current and unkeyed ones', () => {
    const labels: HumanLabel[] = [
      { variant: 'upgraded', trial: 1, label: 'fail', cassette: OLD_HASH },
      { variant: 'upgraded', trial: 2, label: 'pass', cassette: project.hashes.get('upgraded/2')! },
      { variant: 'baseline', trial: 1, label: 'pass' },
    ];
    const state = labelState(report(), () => labels);
    expect(state.items).toHaveLength(10);
    const standing = state.items.flatMap((item) =>
      item.human ? [`${item.variant}/${item.trial} ${item.human.standing}`] : [],
    );
    expect(standing).toEqual(['baseline/1 unkeyed', 'upgraded/1 stale', 'upgraded/2 current']);
    expect(state.checks).toMatchObject([
      {
        check: CHECK,
        stale: 1,
        calibration: { labelled: 2, compared: 2, agree: 1, accuracy: 0.5 },
      },
    ]);
  });

  it('gives the calibration of ten labels with intervals: 9/10 agree when the judge misses one', () => {
    const labels = state10();
    const [check] = labelState(report(), () => labels).checks;
    expect(check?.calibration).toMatchObject({
      labelled: 10,
      compared: 10,
      agree: 9,
      accuracy: 0.9,
    });
    expect(check?.text).toMatch(/^9\/10 agree = 0\.90 \[0\.60, 0\.98\]; κ 0\.80 \[/);
  });

  function state10(): HumanLabel[] {
    return [...project.hashes].map(([key, cassette]) => {
      const [variant, trial] = key.split('/') as [string, string];
      // As the committed labels say: every upgraded answer passes, every baseline one fails.
      const human = variant === 'upgraded' ? ('pass' as const) : ('fail' as const);
      return { variant, trial: Number(trial), label: human, cassette };
    });
  }
});

describe('withLabel', () => {
  it("replaces the trial's old label in place and keeps the file's other fields and labels", () => {
    const current = {
      judge: CHECK,
      by: 'support lead',
      labels: [
        { variant: 'a', trial: 1, label: 'pass' as const, cassette: OLD_HASH },
        { variant: 'a', trial: 2, label: 'fail' as const },
      ],
    };
    const request = {
      suite: 's',
      task: 'T',
      variant: 'a',
      trial: 1,
      check: CHECK,
      cassette: HASH,
      label: 'fail' as const,
      score: 0.3,
      note: '',
    };
    expect(withLabel(current, request)).toEqual({
      judge: CHECK,
      by: 'support lead',
      labels: [
        { variant: 'a', trial: 1, label: 'fail', score: 0.3, cassette: HASH },
        { variant: 'a', trial: 2, label: 'fail' },
      ],
    });
    expect(withLabel(undefined, request)).toMatchObject({
      judge: CHECK,
      labels: [{ variant: 'a', trial: 1 }],
    });
  });
});
