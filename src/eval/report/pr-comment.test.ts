import { describe, expect, it } from 'vitest';
import type { Changes } from '../spec/changes-schema.js';
import { buildReport } from './build-report.js';
import { MAX_PR_COMMENT_CHARS, PR_COMMENT_MARKER, renderPrComment } from './pr-comment.js';
import { makeRecord } from './testing/records.js';

const records = (outcomes: string, variant = 'upgraded', task = 'T1') =>
  [...outcomes].map((letter, index) =>
    makeRecord({
      task,
      variant,
      trial: index + 1,
      outcome: letter === 'P' ? 'passed' : 'failed',
      cassetteHash: `sha256:${task}${variant}${index}`,
    }),
  );

function changes(fixtures: number): Changes {
  return {
    ref: 'main',
    commit: 'a'.repeat(40),
    reference: {
      status: 'changed',
      lowered: true,
      allowed: false,
      rows: [
        {
          suite: 'refund-desk',
          task: 'T1',
          variant: 'upgraded',
          change: 'lowered',
          passAt1: { before: 1, after: 2 / 3 },
          passHatK: { k: 3, before: 1, after: 0 },
        },
      ],
    },
    compared: 'base',
    fixtures: Array.from({ length: fixtures }, (_, index) => ({
      path: `fixtures/T1/upgraded/trial-${index + 1}.json`,
      status: 'modified' as const,
      before: {
        source: 'simulator' as const,
        host: '127.0.0.1:1',
        contentHash: `sha256:${'1'.repeat(64)}`,
      },
      after: {
        source: 'live' as const,
        host: 'api.anthropic.com',
        model: 'claude-opus-5',
        recordedAt: '2026-12-01T10:00:00.000Z',
      },
      commits: [{ commit: 'abc1234', author: 'Mallory' }],
    })),
    fixturesLeftOut: 0,
  };
}

describe('renderPrComment', () => {
  const reference = buildReport({
    records: records('PPP'),
    trials: 3,
    floors: [],
    generatedAt: 'then',
  });
  const report = buildReport({
    records: [...records('PPF'), ...records('FFF', 'baseline')],
    trials: 3,
    floors: [],
    generatedAt: 'now',
    reference,
    changes: changes(2),
  });

  it('starts with the marker the workflow finds it by, then the gate and why it failed', () => {
    const body = renderPrComment(report);
    expect(body.startsWith(`${PR_COMMENT_MARKER}\n\n## harness-evals: ❌ gate failed`)).toBe(true);
    expect(body).toContain('**Why the gate failed**');
    expect(body).toContain('reports/reference.json lowers the bar against main');
  });

  it('shows what the PR changed against its base, the rows that moved with intervals, and the scores', () => {
    const body = renderPrComment(report);
    expect(body).toContain(
      `### Changed against main (aaaaaaa): the reference (lowered), 2 cassettes`,
    );
    expect(body).toContain(
      '| fixtures/T1/upgraded/trial-1.json | modified | simulator, 127.0.0.1:1 (11111111) | live, api.anthropic.com, claude-opus-5, 2026-12-01T10:00Z | abc1234 Mallory |',
    );
    expect(body).toContain("Rows that moved (2 of 2); pass@1 with this run's 95% interval.");
    expect(body).toContain(
      '| T1 | upgraded | 1.00 → 0.67 ▼ [0.21, 0.94] | 1.00 → 0.00 ▼ | ▼ dropped | same cassettes |',
    );
    expect(body).toContain('| T1 | baseline | — → 0.00 [0.00, 0.56] | — → 0.00 | new |  |');
    expect(body).toContain('<summary>Scores with 95% intervals (2 rows)</summary>');
    expect(body).toMatch(/<sub>Detection limit, if these rows were re-recorded/);
  });

  // Issue 33: a 30-row table of cassette hashes came first and buried the decision.
  it('leads with the decision, then what moved, then what changed, with the cassette inventory folded', () => {
    const body = renderPrComment(report);
    const at = (text: string) => {
      expect(body).toContain(text);
      return body.indexOf(text);
    };
    const order = [
      at('## harness-evals: ❌ gate failed'),
      at('**Why the gate failed**'),
      at('### Against the reference'),
      at('### Changed against main'),
      at('<summary>Changed cassettes (2)</summary>'),
      at('| fixtures/T1/upgraded/trial-1.json |'),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('links the HTML report artifact and the run, and nothing that is not an https URL', () => {
    const linked = renderPrComment(report, {
      artifactUrl: 'https://github.com/o/r/actions/runs/1/artifacts/2',
      runUrl: 'https://github.com/o/r/actions/runs/1',
    });
    expect(linked).toContain(
      '[HTML report with every transcript](https://github.com/o/r/actions/runs/1/artifacts/2) · [job summary](https://github.com/o/r/actions/runs/1)',
    );
    const hostile = renderPrComment(report, {
      artifactUrl: 'javascript:alert(1)) [x](https://evil.test',
    });
    expect(hostile).toContain('[HTML report with every transcript](about:blank)');
    expect(hostile).not.toContain('evil.test');
  });

  it('escapes what the records say: a task id cannot add markdown or HTML', () => {
    const evil = buildReport({
      records: records('PF', 'upgraded', 'T9').map((record) => ({
        ...record,
        messages: ['<img src=x onerror=alert(1)> **bold**'],
      })),
      trials: 2,
      floors: [],
      generatedAt: 'now',
      changes: {
        ...changes(1),
        fixtures: [{ ...changes(1).fixtures[0]!, path: 'fixtures/<script>x</script>.json' }],
      },
    });
    const body = renderPrComment(evil);
    expect(body).not.toContain('<script>');
    expect(body).not.toContain('<img');
  });

  // The break (issue 33): a task name, a case id or an answer with @org/team pinged the team.
  it('pings nobody: @user and @org/team from task names, case ids, answers and authors are neutralised', () => {
    const pinging = buildReport({
      records: [
        ...records('PF', 'upgraded', '@org/team').map((record) => ({
          ...record,
          case: '@alice',
          messages: ['expected the answer to mention @bob (cc @org/refunds)'],
        })),
        ...records('FF', 'baseline', '@org/team'),
      ],
      trials: 2,
      floors: [],
      generatedAt: 'now',
      reference: buildReport({
        records: records('PP', 'upgraded', '@org/team'),
        trials: 2,
        floors: [],
        generatedAt: 'then',
      }),
      changes: {
        ...changes(1),
        fixtures: [
          {
            ...changes(1).fixtures[0]!,
            path: 'fixtures/@org/team/trial-1.json',
            commits: [{ commit: 'abc1234', author: '@carol' }],
          },
        ],
      },
    });
    const body = renderPrComment(pinging);
    expect(body).toContain('org/team');
    // A mention is @ after a non-word character, then a name character.
    expect(body).not.toMatch(/(^|[^\w`])@[A-Za-z0-9_-]/m);
    // Still a cross-reference when it is one: #123 is left as it is.
    expect(
      renderPrComment({ ...pinging, gate: { ...pinging.gate, reasons: ['see #123'] } }),
    ).toContain('see #123');
  });

  // The break (issue 33): on a branch that re-records everything the comment showed 30 of 3,000
  // changed cassettes, and the hand-edited one was not among them.
  it('lists every cassette changed but not re-recorded, and the curated ones first, among 3,000 changes', () => {
    const fixtures: Changes['fixtures'] = changes(3000).fixtures.map((fixture, index) => ({
      ...fixture,
      class: index % 100 === 99 ? ('edited' as const) : ('re-recorded' as const),
      ...(index % 100 === 99 && { why: `its content changed (case ${index})` }),
    }));
    fixtures[1234] = {
      ...fixtures[1234]!,
      class: 'curated',
      after: {
        ...fixtures[1234]!.after!,
        curated: { by: 'Alice', reason: 'a typo in the answer' },
      },
    };
    const big = buildReport({
      records: records('PPF'),
      trials: 3,
      floors: [],
      generatedAt: 'now',
      changes: { ...changes(0), fixtures },
    });
    const body = renderPrComment(big, {
      artifactUrl: 'https://github.com/o/r/actions/runs/1/artifacts/2',
    });
    expect(body.length).toBeLessThanOrEqual(MAX_PR_COMMENT_CHARS);
    const edited = fixtures.filter((fixture) => fixture.class === 'edited');
    expect(edited).toHaveLength(30);
    for (const fixture of edited) expect(body).toContain(`${fixture.path.replace(/_/g, '\\_')}`);
    expect(body).toContain('30 cassettes changed but not re-recorded');
    expect(body).toContain('trial-1235.json: by Alice: a typo in the answer');
    // The decision first (issue 33): the gate's reasons, then the curated edit, both never cut.
    expect(body.indexOf('**Why the gate failed**')).toBeLessThan(body.indexOf('trial-1235.json'));
  });

  it('links the complete list with its count when the cassettes changed but not re-recorded do not fit', () => {
    const fixtures = changes(3000).fixtures.map((fixture) => ({
      ...fixture,
      path: `${fixture.path.replace('.json', '')}-${'x'.repeat(40)}.json`,
      class: 'edited' as const,
      why: 'its content changed while its recordedAt and provenance did not',
    }));
    const big = buildReport({
      records: records('PPF'),
      trials: 3,
      floors: [],
      generatedAt: 'now',
      changes: { ...changes(0), fixtures },
    });
    const body = renderPrComment(big, {
      artifactUrl: 'https://github.com/o/r/actions/runs/1/artifacts/2',
    });
    expect(body.length).toBeLessThanOrEqual(MAX_PR_COMMENT_CHARS);
    expect(body).toContain(
      '3000 cassettes changed but not re-recorded: too many to list here; the complete list is `changes.fixtures` (class `edited`) in reports/latest.json, in the [report artifact](https://github.com/o/r/actions/runs/1/artifacts/2)',
    );
    expect(body).not.toContain('cut: the whole report');
  });

  it('stays under the size GitHub takes, with 5,000 changed cassettes', () => {
    const many = buildReport({
      records: records('PPF'),
      trials: 3,
      floors: [],
      generatedAt: 'now',
      changes: { ...changes(500), fixturesLeftOut: 4500 },
    });
    const body = renderPrComment(many);
    expect(body.length).toBeLessThanOrEqual(MAX_PR_COMMENT_CHARS + 100);
    expect(body).toContain('… and 4970 more changed cassettes');
  });
});
