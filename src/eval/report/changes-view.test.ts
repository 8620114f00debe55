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
