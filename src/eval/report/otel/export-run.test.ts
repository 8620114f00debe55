import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { maskConfiguredKeys } from '../../../core/secret-values.js';
import type { TrialRecord } from '../../spec/trial-record.js';
import { buildReport } from '../build-report.js';
import { loadTranscripts, type TrialTranscript } from '../load-transcripts.js';
import {
  type DecodedSpan,
  decodeExport,
  decodeProtobufExport,
  type ReceivedExport,
  startOtlpReceiver,
} from '../testing/otlp-receiver.js';
import { makeRecord } from '../testing/records.js';
import { exportRunTrace, type OtelTarget } from './export-run.js';
import { encodeSpans, spansOf } from './export-trace.js';
import { runSpan } from './run-spans.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
// A fake key of the real shape, configured as the process's key and quoted by a failing check.
const FAKE_KEY = 'sk-ant-api03-FAKEotelKEYnotREAL0123456789abcdefABCDEF-xyzXYZ012345AA';
let project: string;
let transcripts: TrialTranscript[];
const receivers: Array<{ close(): Promise<void> }> = [];

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'otel-export-'));
  cpSync(join(root, 'fixtures/T2'), join(project, 'fixtures/T2'), { recursive: true });
  maskConfiguredKeys({ ANTHROPIC_API_KEY: FAKE_KEY });
});
beforeAll(async () => {
  transcripts = await loadTranscripts(records(), project);
});
afterAll(() => rmSync(project, { recursive: true, force: true }));
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

const t2 = {
  task: 'T2',
  title: 'unknown order',
  model: 'claude-opus-5',
  provider: 'anthropic' as const,
};

/** A passed trial with a check's score and a judged check, a failed one quoting the key, a stale one. */
function records(): TrialRecord[] {
  return [
    makeRecord({
      ...t2,
      variant: 'baseline',
      fixture: 'fixtures/T2/baseline/trial-1.json',
      host: '127.0.0.1:46437',
      recordedAt: '2026-12-02T12:49:12.244Z',
      cassetteHash: 'sha256:34a8',
      scores: [
        {
          name: 'lookups',
          value: 0.5,
          threshold: 0.5,
          passed: true,
          source: 'check',
          message: `saw ${FAKE_KEY}`,
        },
      ],
      judgments: [
        {
          check: 'polite',
          verdict: 'pass',
          score: 0.9,
          threshold: 0.5,
          votes: { pass: 1, fail: 0 },
          models: ['claude-haiku-4-5'],
          samples: [
            {
              model: 'claude-haiku-4-5',
              sample: 1,
              label: 'pass',
              score: 0.9,
              reasoning: `polite; key ${FAKE_KEY}`,
              latencyMs: 40,
              inputTokens: 900,
              outputTokens: 60,
            },
          ],
          calls: 'replayed',
        },
      ],
    }),
    makeRecord({
      ...t2,
      variant: 'upgraded',
      outcome: 'failed',
      fixture: 'fixtures/T2/upgraded/trial-1.json',
      messages: [`expected no key, got ${FAKE_KEY}`],
    }),
    makeRecord({ ...t2, variant: 'upgraded', trial: 2, outcome: 'stale', messages: ['stale'] }),
  ];
}

async function exported(
  target: Partial<OtelTarget>,
  url?: string,
  encoding: 'json' | 'protobuf' = 'json',
): Promise<ReceivedExport> {
  const receiver = await startOtlpReceiver();
  receivers.push(receiver);
  const list = records();
  const report = buildReport({ records: list, trials: 1, floors: [], generatedAt: new Date() });
  const result = await exportRunTrace(
    {
      content: false,
      serviceName: 'harness-evals',
      startedAt: new Date('2026-12-07T10:00:00Z'),
      endpoint: {
        url: url ?? `${receiver.url}/v1/traces`,
        headers: {},
        timeoutMs: 5000,
        encoding,
      },
      ...target,
    },
    { projectDir: project, records: list, report },
  );
  expect(result.problems).toEqual([]);
  expect(receiver.received).toHaveLength(1);
  return receiver.received[0]!;
}

const named = (spans: DecodedSpan[], prefix: string) =>
  spans.filter((span) => span.name.startsWith(prefix));
const ms = (span: DecodedSpan) => Number((span.endNs - span.startNs) / 1_000_000n);

describe('exportRunTrace', () => {
  it('sends one trace: the run, a span per trial, the agent, its chat and execute_tool spans', async () => {
    const { spans, resource, scope, headers } = await exported({});
    expect(headers['content-type']).toBe('application/json');
    expect(resource['service.name']).toBe('harness-evals');
    expect(scope).toBe('harness-evals');
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const [run, ...rest] = named(spans, 'eval');
    expect(rest).toEqual([]);
    expect(run?.parentSpanId).toBeUndefined();
    const trials = named(spans, 'trial ');
    expect(trials.map((span) => span.name).sort()).toEqual([
      'trial T2 baseline #1',
      'trial T2 upgraded #1',
      'trial T2 upgraded #2',
    ]);
    for (const trial of trials) expect(trial.parentSpanId).toBe(run?.spanId);
    const agents = named(spans, 'invoke_agent ');
    // The stale trial did not run: no agent span under it.
    expect(
      agents.map((agent) => spans.find((s) => s.spanId === agent.parentSpanId)?.name).sort(),
    ).toEqual(['trial T2 baseline #1', 'trial T2 upgraded #1']);
    const calls = [...named(spans, 'chat '), ...named(spans, 'execute_tool ')];
    const [judged, ...others] = calls.filter(
      (span) => 'harness_evals.judge.check' in span.attributes,
    );
    expect(others).toEqual([]);
    // The agent's calls sit under its span; the judge's under the trial it judged.
    for (const child of calls.filter((span) => span !== judged)) {
      expect(agents.map((agent) => agent.spanId)).toContain(child.parentSpanId);
    }
    expect(spans.find((span) => span.spanId === judged?.parentSpanId)?.name).toBe(
      'trial T2 baseline #1',
    );
  });

  it('names each span and attribute as the GenAI and test semantic conventions do', async () => {
    const { spans } = await exported({});
    const trial = spans.find((span) => span.name === 'trial T2 baseline #1')!;
    expect(trial.attributes).toMatchObject({
      'test.suite.name': 'refund-desk',
      'test.case.name': 'T2/baseline',
      'test.case.result.status': 'pass',
      'harness_evals.task': 'T2',
      'harness_evals.variant': 'baseline',
      'harness_evals.trial': 1,
      'harness_evals.replayed': true,
    });
    const agent = spans.find((span) => span.parentSpanId === trial.spanId)!;
    expect(agent.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'refund-desk/baseline',
    });
    const chats = spans.filter(
      (span) => span.parentSpanId === agent.spanId && span.name.startsWith('chat'),
    );
    expect(chats.map((chat) => chat.name)).toEqual(['chat claude-opus-5', 'chat claude-opus-5']);
    expect(chats[0]!.kind).toBe(3);
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.system': 'anthropic',
      'gen_ai.request.model': 'claude-opus-5',
      'gen_ai.usage.input_tokens': 377,
      'gen_ai.usage.output_tokens': 16,
      'gen_ai.usage.cache_read.input_tokens': 0,
      'gen_ai.usage.cache_creation.input_tokens': 0,
      'gen_ai.response.finish_reasons': ['tool_use'],
      'server.address': '127.0.0.1',
      'harness_evals.replayed': true,
    });
    // Replayed: each model call lasts what the cassette recorded (111 ms, then 58 ms).
    expect(chats.map(ms)).toEqual([111, 58]);
    const [tool] = spans.filter(
      (span) => span.parentSpanId === agent.spanId && span.name.startsWith('execute_tool'),
    );
    expect(tool?.name).toBe('execute_tool get_order');
    expect(tool?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_order',
      'gen_ai.tool.call.id': 'toolu_01Sr1lAYTPyi7Q3a4EWRmJEv',
    });
    // The calls follow one another: chat, its tool call, the next chat.
    expect(tool!.startNs).toBe(chats[0]!.endNs);
    expect(chats[1]!.startNs).toBe(tool!.endNs);
  });

  it("exports a judge's calls as chat spans under the trial, after the agent's run", async () => {
    const { spans } = await exported({});
    const trial = spans.find((span) => span.name === 'trial T2 baseline #1')!;
    const [agent, judge, ...more] = spans
      .filter((span) => span.parentSpanId === trial.spanId)
      .sort((left, right) => Number(left.startNs - right.startNs));
    expect(more).toEqual([]);
    expect(agent?.name).toBe('invoke_agent refund-desk/baseline');
    expect(judge?.name).toBe('chat claude-haiku-4-5');
    expect(judge?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-haiku-4-5',
      'gen_ai.usage.input_tokens': 900,
      'gen_ai.usage.output_tokens': 60,
      'harness_evals.judge.check': 'polite',
      'harness_evals.replayed': true,
    });
    expect(judge!.startNs).toBe(agent!.endNs);
    expect(ms(judge!)).toBe(40);
    expect(trial.endNs).toBe(judge!.endNs);
  });

  it('reports checks, scores and judged checks as gen_ai.evaluation.result events on the agent span', async () => {
    const { spans } = await exported({});
    const agent = spans.find((span) => span.name === 'invoke_agent refund-desk/baseline')!;
    const events = agent.events.map((event) => [event.name, event.attributes]);
    expect(events).toEqual([
      [
        'gen_ai.evaluation.result',
        {
          'gen_ai.evaluation.name': 'checks',
          'gen_ai.evaluation.score.value': 1,
          'gen_ai.evaluation.score.label': 'pass',
        },
      ],
      [
        'gen_ai.evaluation.result',
        expect.objectContaining({
          'gen_ai.evaluation.name': 'lookups',
          'gen_ai.evaluation.score.value': 0.5,
          'gen_ai.evaluation.score.label': 'pass',
        }),
      ],
      [
        'gen_ai.evaluation.result',
        expect.objectContaining({
          'gen_ai.evaluation.name': 'polite',
          'gen_ai.evaluation.score.value': 0.9,
          'gen_ai.evaluation.score.label': 'pass',
          'harness_evals.judge.votes.pass': 1,
        }),
      ],
    ]);
    const failed = spans.find((span) => span.name === 'invoke_agent refund-desk/upgraded')!;
    expect(failed.events[0]?.attributes['gen_ai.evaluation.score.label']).toBe('fail');
    const stale = spans.find((span) => span.name === 'trial T2 upgraded #2')!;
    expect(stale.status).toEqual({ code: 2, message: 'stale' });
    expect(stale.attributes['test.case.result.status']).toBe('fail');
  });

  it('sends no prompt, answer or tool argument unless content is asked for, and then redacted', async () => {
    const plain = await exported({});
    const contentKeys = [
      'gen_ai.input.messages',
      'gen_ai.output.messages',
      'gen_ai.tool.call.arguments',
      'gen_ai.evaluation.explanation',
    ];
    const keys = plain.spans.flatMap((span) => [
      ...Object.keys(span.attributes),
      ...span.events.flatMap((event) => Object.keys(event.attributes)),
    ]);
    for (const key of contentKeys) expect(keys).not.toContain(key);
    expect(plain.text).not.toContain('How far along is the refund');

    const full = await exported({ content: true });
    const agent = full.spans.find((span) => span.name === 'invoke_agent refund-desk/baseline')!;
    expect(JSON.parse(String(agent.attributes['gen_ai.input.messages']))).toEqual([
      {
        role: 'user',
        parts: [{ type: 'text', content: 'How far along is the refund for order ORD3003?' }],
      },
    ]);
    const failed = full.spans.find((span) => span.name === 'invoke_agent refund-desk/upgraded')!;
    expect(failed.events[0]?.attributes['gen_ai.evaluation.explanation']).toBe(
      'expected no key, got [redacted ANTHROPIC_API_KEY]',
    );
    for (const text of [plain.text, full.text]) expect(text).not.toContain('FAKEotelKEY');
  });

  it('sends protobuf when asked: the same spans as the JSON encoding, decoded by field number', async () => {
    const sent = await exported({}, undefined, 'protobuf');
    expect(sent.headers['content-type']).toBe('application/x-protobuf');
    const list = records();
    const plan = runSpan({
      report: buildReport({ records: list, trials: 1, floors: [], generatedAt: new Date() }),
      trials: list.map((record, index) => ({ record, transcript: transcripts[index]! })),
      startedAt: new Date('2026-12-07T10:00:00Z'),
      endedAt: new Date('2026-12-07T10:00:01Z'),
      content: true,
    });
    const spans = await spansOf(plan, { 'service.name': 'harness-evals' });
    const json = decodeExport(new TextDecoder().decode(encodeSpans(spans, 'json')));
    const protobuf = decodeProtobufExport(encodeSpans(spans, 'protobuf'));
    expect(protobuf.spans).toHaveLength(13);
    expect(protobuf.spans).toEqual(json.spans);
    expect(protobuf.resource).toEqual(json.resource);
    expect(sent.spans.map((span) => span.name)).toEqual(json.spans.map((span) => span.name));
  });

  it('writes the same OTLP/JSON request to a file', async () => {
    const list = records();
    const report = buildReport({ records: list, trials: 1, floors: [], generatedAt: new Date() });
    const result = await exportRunTrace(
      { file: 'reports/trace.json', content: true, serviceName: 'evals', startedAt: new Date() },
      { projectDir: project, records: list, report },
    );
    expect(result).toEqual({ done: ['wrote reports/trace.json (13 spans)'], problems: [] });
    const text = readFileSync(join(project, 'reports/trace.json'), 'utf8');
    const decoded = decodeExport(text);
    expect(decoded.spans).toHaveLength(13);
    expect(decoded.resource['service.name']).toBe('evals');
    expect(text).not.toContain('FAKEotelKEY');
  });

  it('says which collector refused the trace and why, without quoting its headers', async () => {
    const refusing = await startOtlpReceiver({ status: 401 });
    receivers.push(refusing);
    const list = records();
    const report = buildReport({ records: list, trials: 1, floors: [], generatedAt: new Date() });
    const send = (url: string) =>
      exportRunTrace(
        {
          endpoint: {
            url,
            headers: { authorization: `Bearer ${FAKE_KEY}` },
            timeoutMs: 5000,
            encoding: 'json',
          },
          content: false,
          serviceName: 'harness-evals',
          startedAt: new Date(),
        },
        { projectDir: project, records: list, report },
      );
    const refused = await send(`${refusing.url}/v1/traces`);
    expect(refused.done).toEqual([]);
    expect(refused.problems).toEqual([
      `the collector at ${refusing.url}/v1/traces refused the trace: HTTP 401 {"code":16,"message":"missing credentials"}; check the credentials in OTEL_EXPORTER_OTLP_HEADERS`,
    ]);
    // Nothing listens there: the connection itself is refused.
    const gone = await startOtlpReceiver();
    await gone.close();
    const unreachable = await send(`${gone.url}/v1/traces`);
    expect(unreachable.problems).toEqual([
      `could not send the trace to ${gone.url}/v1/traces: connect ECONNREFUSED ${gone.url.slice('http://'.length)}; start a collector there, or drop --otel-endpoint (and unset OTEL_EXPORTER_OTLP_ENDPOINT)`,
    ]);
    expect(JSON.stringify([refused, unreachable])).not.toContain('FAKEotelKEY');
  });
});
