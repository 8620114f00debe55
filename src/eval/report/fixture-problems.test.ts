import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { htmlModel } from './html-model.js';
import { renderMarkdown } from './markdown.js';
import { buildReportModel } from './report-model.js';
import { renderTerminal } from './terminal.js';
import { makeRecord } from './testing/records.js';

describe('a cassette that is corrupt or holds a credential', () => {
  const report = buildReport({
    records: [
      makeRecord({ trial: 1, outcome: 'stale', messages: ['request 1 differs'] }),
      makeRecord({
        trial: 2,
        outcome: 'stale',
        fixtureProblem: 'corrupt',
        messages: ['invalid JSON'],
      }),
      makeRecord({
        trial: 3,
        outcome: 'stale',
        fixtureProblem: 'secret',
        messages: ['holds an sk-ant- key'],
      }),
    ],
    trials: 3,
    floors: [],
    generatedAt: '2026-01-09T10:00:00Z',
  });

  it('is named as such in the gate, the counts and the lists, not called stale', () => {
    expect(report.gate.reasons).toEqual([
      '1 stale fixture (re-record them): T1 upgraded trial 1',
      '1 corrupt fixture (restore them (git checkout) or re-record them): T1 upgraded trial 2',
      '1 fixture holding a credential (delete them, revoke the key if it is real, and re-record them): T1 upgraded trial 3',
    ]);
    expect(report.tasks[0]?.excluded).toMatchObject({
      stale: [1, 2, 3],
      corrupt: [2],
      secret: [3],
    });
    const terminal = renderTerminal(report);
    expect(terminal).toContain('0/0 (1 stale, 1 corrupt, 1');
    expect(terminal).toContain('T1 upgraded trial 2: corrupt');
    expect(terminal).toContain('T1 upgraded trial 3: holds a credential');
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('| 0/0 (1 stale, 1 corrupt, 1 holding a credential) |');
    expect(markdown).toContain('<summary>T1 upgraded trial 2: corrupt</summary>');
    expect(markdown).toContain('<summary>T1 upgraded trial 3: holds a credential</summary>');
    expect(htmlModel(buildReportModel(report)).rows[0]?.marks).toContainEqual(
      expect.objectContaining({
        text: 'fixture problems: 1 stale, 1 corrupt, 1 holding a credential',
      }),
    );
  });
});

describe('the header of a run of one trial', () => {
  it("says '1 trial', not '1 trials'", () => {
    const one = buildReport({ records: [makeRecord()], trials: 1, floors: [], generatedAt: 'now' });
    expect(renderTerminal(one)).toContain('1 trial per task and variant');
    expect(renderTerminal(one)).not.toContain('1 trials');
  });
});
