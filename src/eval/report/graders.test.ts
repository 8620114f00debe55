import { describe, expect, it } from 'vitest';
import type { JudgmentRecord, SampleVerdict } from '../spec/judgment.js';
import { judgmentOf } from '../spec/judgment.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { buildReport } from './build-report.js';
import { compareReports } from './compare.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { buildReportModel } from './report-model.js';
import { EvalReportSchema } from './report-schema.js';
import { summarizeJudges } from './summarize-judges.js';
import { renderTerminal } from './terminal.js';
import { makeRecord } from './testing/records.js';

type Vote = readonly [label: 'pass' | 'fail', score: number];

/** A judged trial of T7: per judge model, its samples' votes. */
function judged(
  variant: string,
  trial: number,
  votes: Record<string, readonly Vote[]>,
  extra: Partial<JudgmentRecord> & { outcome?: TrialRecord['outcome'] } = {},
): TrialRecord {
  const samples: SampleVerdict[] = Object.entries(votes).flatMap(([model, list]) =>
    list.map(([label, score], index) => ({
      model,
      sample: index + 1,
      label,
      score,
      reasoning: `${label} by ${model}`,
      latencyMs: 100 + index,
      inputTokens: 400,
      outputTokens: 40,
    })),
  );
  const { outcome, ...base } = extra;
  const judgment = judgmentOf(
    {
      check: 'polite-refusal',
      threshold: 0.5,
      models: Object.keys(votes),
      calls: 'replayed',
      source: 'simulator',
      ...base,
    },
    samples,
  );
  return makeRecord({
    task: 'T7',
    title: 'Polite refusal',
    variant,
    trial,
    outcome: outcome ?? (judgment.verdict === 'pass' ? 'passed' : 'failed'),
    judgments: [judgment],
    scores: [
      {
        name: 'polite-refusal',
        value: judgment.score ?? 0,
        threshold: 0.5,
        passed: judgment.verdict === 'pass',
        source: 'judge',
      },
    ],
    cassetteHash: `agent-${variant}-${trial}`,
    judgeCassetteHash: `judge-${variant}-${trial}`,
  });
}

const P: Vote = ['pass', 1];
const F: Vote = ['fail', 0.25];

describe('summarizeJudges', () => {
  it('flip rate across one model’s samples, apart from the verdicts', () => {
    const records = [
      judged('upgraded', 1, { sonnet: [P, P, F] }),
      judged('upgraded', 2, { sonnet: [P, P, P] }),
      judged('baseline', 1, { sonnet: [F, F, F] }),
      judged('baseline', 2, { sonnet: [F, P, F] }),
    ];
    const [summary] = summarizeJudges(records)!;
    expect(summary).toMatchObject({
      task: 'T7',
      check: 'polite-refusal',
      models: ['sonnet'],
      samples: 3,
      trials: 4,
      verdicts: { pass: 2, fail: 2, error: 0 },
      flipRate: 0.5,
      flipPairs: 4,
      kappa: null,
      calibration: null,
    });
  });

  it("kappa across two judge models is Cohen's, over more it is Fleiss'", () => {
    const two = [
      judged('upgraded', 1, { a: [P], b: [P] }),
      judged('upgraded', 2, { a: [P], b: [F] }),
      judged('baseline', 1, { a: [F], b: [F] }),
    ];
    const [cohen] = summarizeJudges(two)!;
    // a: pass pass fail, b: pass fail fail -> 0.4 (see agreement.test.ts).
    expect(cohen!.kappa).toMatchObject({ method: 'cohen', trials: 3 });
    expect(cohen!.kappa!.value).toBeCloseTo(0.4, 10);
    expect(cohen!.flipRate).toBeNull();
    const three = [
      judged('upgraded', 1, { a: [P], b: [P], c: [P] }),
      judged('baseline', 1, { a: [F], b: [F], c: [F] }),
    ];
    expect(summarizeJudges(three)![0]!.kappa).toMatchObject({ method: 'fleiss', value: 1 });
  });

  it('calibrates the majority verdict against the human labels, with intervals', () => {
    const labels = { labels: 'evals/labels/t7.json' };
    const records = [
      judged('upgraded', 1, { s: [P] }, { ...labels, human: 'pass' }),
      judged('upgraded', 2, { s: [F] }, { ...labels, human: 'pass' }),
      judged('baseline', 1, { s: [F] }, { ...labels, human: 'fail' }),
      judged('baseline', 2, { s: [F] }, labels),
    ];
    const calibration = summarizeJudges(records)![0]!.calibration!;
    expect(calibration).toMatchObject({
      file: 'evals/labels/t7.json',
      labelled: 3,
      compared: 3,
      agree: 2,
    });
    expect(calibration.accuracy).toBeCloseTo(2 / 3, 10);
    expect(calibration.accuracyInterval!.lower).toBeCloseTo(0.2077, 3);
    // judge: pass fail fail, human: pass pass fail -> Cohen 0.4.
    expect(calibration.kappa).toBeCloseTo(0.4, 10);
  });

  it('counts replayed judge calls apart: they are not live cost or latency', () => {
    const records = [
      judged('upgraded', 1, { s: [P, P] }),
      judged('upgraded', 2, { s: [P] }, { calls: 'live' }),
    ];
    expect(summarizeJudges(records)![0]!.calls).toEqual({
      replayed: 2,
      live: 1,
      recorded: 0,
      sources: ['simulator'],
      liveInputTokens: 400,
      liveOutputTokens: 40,
      liveLatencyMs: { p50: 100, p95: 100 },
    });
  });
});

describe('the report shows the graders', () => {
  const records = [
    judged('upgraded', 1, { sonnet: [P, P, F] }, { labels: 'l.json', human: 'pass' }),
    judged('upgraded', 2, { sonnet: [P, P, P] }),
    judged('baseline', 1, { sonnet: [F, F, F] }),
    judged('baseline', 2, { sonnet: [['pass', 0.2] as Vote, F, F] }),
    judged('upgraded', 3, { sonnet: [P] }, { outcome: 'judge_error' }),
  ];
  records[4]!.judgments![0]!.verdict = 'error';
  records[4]!.judgments![0]!.samples[0] = {
    model: 'sonnet',
    sample: 1,
    error: 'no tool call: the judge answered nothing',
  };
  records[4]!.messages = [
    "judge 'polite-refusal' (sonnet, sample 1): no tool call: the judge answered nothing",
  ];
  const report = buildReport({
    records,
    trials: 3,
    floors: [
      { task: 'T7', floor: { variant: 'upgraded', score: 'polite-refusal', meanScore: 0.95 } },
    ],
    generatedAt: '2026-12-01T00:00:00.000Z',
  });

  it('the JSON report holds mean scores, the judges and the verdicts per trial, and parses as its schema', () => {
    expect(() => EvalReportSchema.parse(JSON.parse(JSON.stringify(report)))).not.toThrow();
    const upgraded = report.tasks.find((row) => row.variant === 'upgraded')!;
    expect(upgraded.scores).toMatchObject([
      { name: 'polite-refusal', source: 'judge', n: 2, passed: 2, threshold: 0.5 },
    ]);
    expect(upgraded.excluded.judgeError).toEqual([3]);
    expect(upgraded.n).toBe(2);
    expect(report.judges).toHaveLength(1);
    expect(report.judgedTrials).toHaveLength(5);
  });

  it('the gate fails on a judge error and on a mean score below its floor', () => {
    expect(report.gate.passed).toBe(false);
    expect(report.gate.reasons).toEqual([
      '1 trial with a judge error (the judge gave no usable verdict; see the judge errors): T7 upgraded trial 3',
      "T7 upgraded mean score 'polite-refusal' 0.88 is below the floor 0.95",
    ]);
  });

  it('a mean-score floor is checked against the interval with --strict-floors', () => {
    const strict = buildReport({
      records: records.slice(0, 4),
      trials: 3,
      floors: [
        { task: 'T7', floor: { variant: 'upgraded', score: 'polite-refusal', meanScore: 0.6 } },
      ],
      generatedAt: '2026-12-01T00:00:00.000Z',
      strictFloors: true,
    });
    expect(strict.gate.reasons[0]).toMatch(
      /^T7 upgraded mean score 'polite-refusal' 0\.88 has the lower bound 0\.\d\d, below the floor 0\.60 \(--strict-floors\)$/,
    );
  });

  it('terminal, markdown and HTML show scores, agreement, calibration, calls and judge errors', () => {
    const model = buildReportModel(report);
    const terminal = renderTerminal(model);
    const markdown = renderMarkdown(model);
    const html = renderHtml(model, []);
    for (const text of [terminal, markdown, html].map((shown) => shown.replace(/\s+/g, ' '))) {
      expect(text).toContain('polite-refusal');
      expect(text).toMatch(/0\.88 \\?\[/);
      expect(text).toMatch(/flip rate|Flip rate/);
      expect(text).toMatch(/1\/1 agree = 1\.00 \\?\[0\.21, 1\.00\\?\]/);
      expect(text).toContain('13 replayed (simulator), 0 live');
      expect(text).toMatch(/Judge errors/);
      expect(text).toContain('no tool call: the judge answered nothing');
    }
    expect(markdown).toContain('Verdicts per trial (5)');
    expect(html).toContain('<section id="graders" class="graders">');
    // The judge error is not listed with the agent's failures.
    expect(model.failures.some((failure) => failure.outcome === 'judge_error')).toBe(false);
    expect(terminal.split('\n').every((line) => line.length <= 100)).toBe(true);
  });

  it('a report without graders renders no graders section', () => {
    const plain = buildReport({ records: [makeRecord()], trials: 1, floors: [], generatedAt: 'x' });
    expect(plain.judges).toBeUndefined();
    expect(renderMarkdown(plain)).not.toContain('## Judges');
    expect(renderTerminal(plain)).not.toContain('Scores in 0..1');
  });

  it('in the HTML, judge reasoning is inert text and redacted', () => {
    const hostile = judged('upgraded', 9, { s: [P] });
    hostile.judgments![0]!.samples[0]!.reasoning =
      '<img src=x onerror=alert(1)> card 6222020200112233445';
    const html = renderHtml(
      buildReportModel(
        buildReport({ records: [hostile], trials: 1, floors: [], generatedAt: 'x' }),
      ),
      [],
    );
    const graders = /<section id="graders"[\s\S]*?<\/section>/.exec(html)![0];
    expect(graders).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(graders).not.toContain('<img');
    expect(graders).toContain('6222****3445');
  });
});

describe('summarizeScores', () => {
  it("keeps a judged check and a check's own score of one name apart", () => {
    const record = judged('upgraded', 1, { s: [P] });
    record.scores!.push({
      name: 'polite-refusal',
      value: 0.5,
      threshold: 1,
      passed: false,
      source: 'check',
    });
    const row = buildReport({ records: [record], trials: 1, floors: [], generatedAt: 'x' })
      .tasks[0]!;
    expect(row.scores?.map((score) => [score.name, score.source, score.n, score.mean])).toEqual([
      ['polite-refusal', 'check', 1, 0.5],
      ['polite-refusal', 'judge', 1, 1],
    ]);
  });
});

describe('comparison with the reference counts the judge cassette', () => {
  const rows = (judge: string | undefined) => {
    const records = [judged('upgraded', 1, { s: [P] }), judged('upgraded', 2, { s: [P] })];
    for (const record of records) {
      if (judge === undefined) delete record.judgeCassetteHash;
      else record.judgeCassetteHash = judge === 'unrecorded' ? judge : `${judge}-${record.trial}`;
    }
    return buildReport({ records, trials: 2, floors: [], generatedAt: 'x' });
  };
  it('the same agent cassettes with another judge recording are not the same replay', () => {
    const before = rows('old');
    expect(compareReports(before, rows('old')).entries[0]!.cassettes).toBe('same');
    expect(compareReports(before, rows('new')).entries[0]!.cassettes).toBe('different');
    expect(compareReports(rows('unrecorded'), rows('unrecorded')).entries[0]!.cassettes).toBe(
      'different',
    );
  });
});

// Issue 33: a judge script's verdicts were labelled `claude-sonnet-5 × 3`, as a model's.
describe('the judge label', () => {
  it('names the judge script that gave the verdicts, and the model it stood in for', () => {
    const scripted = [1, 2].map((trial) =>
      judged('upgraded', trial, { 'claude-sonnet-5': [P, P, F] }, { script: 'strict-grader' }),
    );
    const report = buildReport({ records: scripted, trials: 2, floors: [], generatedAt: 'now' });
    expect(summarizeJudges(scripted)?.[0]?.script).toBe('strict-grader');
    const label = "judge script 'strict-grader' (as claude-sonnet-5) × 3";
    expect(renderTerminal(report)).toContain(label);
    expect(renderMarkdown(report)).toContain(label);
    const model = judged('upgraded', 1, { 'claude-sonnet-5': [P, P, F] });
    expect(
      renderTerminal(buildReport({ records: [model], trials: 1, floors: [], generatedAt: 'now' })),
    ).toContain('claude-sonnet-5 × 3');
  });
});
