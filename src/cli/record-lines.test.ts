import { describe, expect, it } from 'vitest';
import { judgmentOf } from '../eval/spec/judgment.js';
import type { TrialRecord } from '../eval/spec/trial-record.js';
import { emptyCounts, recordLine, repeatedFailureLines, summaryLine } from './record-lines.js';

const record = (fields: Partial<TrialRecord>): TrialRecord => ({
  suite: 's',
  task: 'T1',
  title: 't',
  variant: 'v1',
  trial: 1,
  outcome: 'passed',
  messages: [],
  modelLatenciesMs: [],
  fixture: 'fixtures/T1/v1/trial-1.json',
  ...fields,
});

const judgment = judgmentOf({ check: 'polite', threshold: 0.5, models: ['m'], calls: 'recorded' }, [
  { model: 'm', sample: 1, label: 'fail', score: 0 },
]);

describe('record lines', () => {
  it('shows ✓ only for checks that passed, and says a cassette with failed checks was written', () => {
    const counts = emptyCounts();
    const passed = recordLine(
      record({ written: true, stats: { steps: 1 } as never }),
      1200,
      counts,
    );
    const failed = recordLine(
      record({
        written: true,
        outcome: 'failed',
        messages: ['expected "x"'],
        stats: { steps: 2 } as never,
      }),
      300,
      counts,
    );
    const threw = recordLine(
      record({ written: true, outcome: 'errored', messages: ['boom'] }),
      0,
      counts,
    );
    expect(passed).toBe(
      '  ✓ fixtures/T1/v1/trial-1.json: recorded, 1 request, 1.2 s, checks passed',
    );
    expect(failed).toBe(
      '  ! fixtures/T1/v1/trial-1.json: recorded, 2 requests, 0.3 s; checks failed: expected "x"',
    );
    expect(threw).toContain('! fixtures/T1/v1/trial-1.json: recorded, 0 requests');
    expect(threw).toContain('the check errored: boom');
    for (const line of [failed, threw]) expect(line).not.toContain('✓');
    expect(counts).toEqual({ ...emptyCounts(), written: 3, checksFailed: 2 });
  });

  it('counts a trial that wrote nothing as failed, and the summary never says "nothing written" of a written one', () => {
    const counts = emptyCounts();
    const line = recordLine(
      record({ outcome: 'errored', messages: ['recording failed, nothing written: refused'] }),
      0,
      counts,
    );
    expect(line).toBe('  ✗ T1 v1 trial 1: recording failed, nothing written: refused (0.0 s)');
    recordLine(record({ written: true, outcome: 'failed', messages: ['no'] }), 0, counts);
    expect(summaryLine(counts, '1.0')).toBe(
      '1 trial recorded (1 with failed checks: the cassettes are written), 1 failed (nothing written for those) in 1.0 s',
    );
    expect(summaryLine({ ...emptyCounts(), written: 2, kept: 1 }, '2.0')).toBe(
      '2 trials recorded, 1 kept, 0 failed (nothing written for those) in 2.0 s',
    );
  });

  it('with --judge-only, says the judge was recorded and the agent cassette replayed, not kept', () => {
    const counts = emptyCounts();
    const line = recordLine(
      record({ outcome: 'failed', messages: ['judge says fail'], judgments: [judgment] }),
      500,
      counts,
      true,
    );
    expect(line).toBe(
      '  ! fixtures/T1/v1/trial-1.json: judge recorded (agent cassette replayed), 0.5 s; checks failed: judge says fail',
    );
    expect(summaryLine(counts, '1.0')).toBe(
      'the judge of 1 trial recorded (their agent cassettes replayed), 0 failed (nothing written for those) in 1.0 s',
    );
  });

  // Issue 33: --judge-only counted the trials of a task with no judge as judged.
  it('with --judge-only, names the selected tasks that have no judge and does not count them', () => {
    const counts = emptyCounts();
    recordLine(record({ judgments: [judgment] }), 500, counts, true);
    const lines = [1, 2].map((trial) =>
      recordLine(
        record({ task: 'T2', trial, fixture: `fixtures/T2/v1/trial-${trial}.json` }),
        500,
        counts,
        true,
      ),
    );
    expect(lines[0]).toBe('  - T2 v1 trial 1: no judge to record (task T2 has no judged check)');
    expect(counts.judged).toBe(1);
    expect(summaryLine(counts, '1.0')).toBe(
      'the judge of 1 trial recorded (their agent cassettes replayed), 2 trials not judged: no judge in task T2, 0 failed (nothing written for those) in 1.0 s',
    );
  });

  // Issue 33: a missing API key printed one ✗ line per trial, each saying the same.
  it('prints a failure that repeats once, then one line naming the other trials it affects', () => {
    const counts = emptyCounts();
    const missing = 'ANTHROPIC_API_KEY is not set: export it, or record with --simulated';
    const lines = [1, 2, 3].map((trial) =>
      recordLine(record({ outcome: 'errored', trial, messages: [missing] }), 100, counts),
    );
    expect(lines[0]).toBe(`  ✗ T1 v1 trial 1: ${missing} (0.1 s)`);
    expect(lines.slice(1)).toEqual(['', '']);
    expect(repeatedFailureLines(counts)).toEqual([
      `  ✗ the same for 2 more trials (T1 v1 trial 2, T1 v1 trial 3): ${missing}`,
    ]);
    expect(counts.failed).toBe(3);
  });

  // Issue 33: a multi-line message (a dataset case's failed expect, with its diff) showed `\n`.
  it('shows the first line of a multi-line message, with no literal \\n', () => {
    const line = recordLine(
      record({
        outcome: 'failed',
        written: true,
        case: 'q1',
        messages: [
          "expected 'Paid' to contain 'Overdue'\n\n- Expected\n+ Received\r\n\n- Overdue\n+ Paid",
        ],
      }),
      100,
      emptyCounts(),
    );
    expect(line).not.toContain('\\n');
    expect(line).toContain(
      "checks failed: expected 'Paid' to contain 'Overdue' (more lines: reports/latest.md)",
    );
  });
});
