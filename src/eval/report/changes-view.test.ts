import { describe, expect, it } from 'vitest';
import type { Changes } from '../spec/changes-schema.js';
import { buildReport } from './build-report.js';
import { renderMarkdown } from './markdown.js';
import { renderTerminal } from './terminal.js';
import { makeRecord } from './testing/records.js';

/** 300 changed cassettes: every 5th changed but not re-recorded, one curated. */
function changes(): Changes {
  return {
    ref: 'main',
    commit: 'b'.repeat(40),
    reference: { status: 'same', rows: [], lowered: false, allowed: false },
    compared: 'base',
    fixtures: Array.from({ length: 300 }, (_, index) => ({
      path: `fixtures/T1/upgraded/trial-${index + 1}.json`,
      status: 'modified' as const,
      class: index === 7 ? 'curated' : index % 5 === 4 ? 'edited' : 're-recorded',
      ...(index % 5 === 4 && { why: `answer ${index + 1} does not follow from its request` }),
      after: {
        source: 'live' as const,
        ...(index === 7 && { curated: { by: 'Alice', reason: 'typo' } }),
      },
      commits: [],
    })),
    fixturesLeftOut: 0,
  };
}

describe('the changes against the base in the terminal and markdown reports', () => {
  const report = buildReport({
    records: [makeRecord()],
    trials: 1,
    floors: [],
    generatedAt: 'now',
    changes: changes(),
  });

  // The break (issue 33): only the first 10 (terminal) or 50 (markdown) changed cassettes were
  // shown, so an edited one past them was nowhere to be seen.
  it('lists every cassette changed but not re-recorded, and every curated one, however many changed', () => {
    for (const text of [renderTerminal(report, { color: false }), renderMarkdown(report)]) {
      for (let trial = 5; trial <= 300; trial += 5) {
        expect(text).toMatch(new RegExp(`trial-${trial}\\.json: answer ${trial} does not follow`));
      }
      expect(text).toContain('trial-8.json: by Alice: typo');
      expect(text).toContain(
        '300 cassettes, 60 of them changed but not re-recorded, 1 edited by hand (curated)',
      );
    }
    expect(renderMarkdown(report)).toContain('modified, CHANGED, NOT RE-RECORDED');
  });
});

describe('the verdict inputs changed against the base', () => {
  const t8 = (outcomes: string) =>
    [...outcomes].map((letter, index) =>
      makeRecord({
        task: 'T8',
        variant: 'baseline',
        trial: index + 1,
        outcome: letter === 'P' ? 'passed' : 'failed',
      }),
    );
  const same: Changes = {
    ref: 'main',
    commit: 'c'.repeat(40),
    reference: { status: 'same', rows: [], lowered: false, allowed: false },
    compared: 'base',
    fixtures: [],
    fixturesLeftOut: 0,
  };

  // The break (issue 33): an edited dataset expectation took T8 baseline from 0.46 to 0.63 and
  // the report said "Nothing changed against main: the same reference and cassettes".
  it('are listed beside the cassettes with the rows they moved, and the title says so', () => {
    const report = buildReport({
      records: t8('PPF'),
      trials: 3,
      floors: [],
      generatedAt: 'now',
      reference: buildReport({ records: t8('PFF'), trials: 3, floors: [], generatedAt: 'then' }),
      changes: {
        ...same,
        inputs: [{ path: 'evals/data/t8-questions.json', status: 'modified', tasks: ['T8'] }],
      },
    });
    for (const text of [renderTerminal(report, { color: false }), renderMarkdown(report)]) {
      expect(text).not.toContain('Nothing changed');
      expect(text).toContain('1 verdict input (task files, datasets, rubrics, labels)');
      expect(text).toMatch(
        /evals\/data\/t8-questions\.json.*modified.*T8 baseline pass@1 0\.33 → 0\.67/,
      );
    }
  });
});
