import { createHash } from 'node:crypto';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readCassette } from '../../replay/cassette-file.js';
import type { TraceEvent } from '../../runtime/trace.js';
import { decodeTranscript } from '../transcript/transcript.js';
import { buildReport } from './build-report.js';
import { type HtmlTrial, htmlCsp, renderHtml } from './html.js';
import { streamedWeatherCassette, weatherCassette } from './testing/chat-cassettes.js';
import { makeRecord } from './testing/records.js';
import { viewerScript } from './viewer-bundle.js';

const CARD = '6222020200112233445';
const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

async function render() {
  const file = new URL('../../../fixtures/T1/baseline/trial-1.json', import.meta.url).pathname;
  const transcript = decodeTranscript(await readCassette(file));
  const records = [1, 2, 3].map((trial) =>
    makeRecord({
      variant: 'baseline',
      trial,
      outcome: trial === 3 ? 'passed' : 'failed',
      messages: [
        `expected '${CARD}' not to contain the card </script><b>x</b>`,
        'bidi \u202eevil\u202c \u2067x',
      ],
    }),
  );
  const report = buildReport({
    records,
    trials: 2,
    floors: [],
    generatedAt: '2026-01-09T10:00:00Z',
  });
  return {
    transcript,
    html: renderHtml(
      report,
      records.map((record) => ({
        record,
        transcript: { format: 'anthropic-messages', transcript },
      })),
    ),
  };
}

/** The page's data elements, parsed: the model, the shared texts and each trial's details. */
function embeddedData(html: string) {
  const blocks = new Map(
    [...html.matchAll(/<script type="application\/json" id="([^"]+)">(.*?)<\/script>/gs)].map(
      (match) => [match[1]!, JSON.parse(match[2]!)],
    ),
  );
  const details = [...blocks.keys()]
    .filter((id) => id.startsWith('trial-'))
    .map((id) => blocks.get(id));
  return { model: blocks.get('report-model'), texts: blocks.get('report-texts'), details };
}

function reportOf(records: ReturnType<typeof makeRecord>[], trials = 3) {
  return buildReport({ records, trials, floors: [], generatedAt: '2026-01-09T10:00:00Z' });
}

describe('renderHtml', () => {
  it('masks the card number everywhere, in transcripts and assertion messages alike', async () => {
    const { transcript, html } = await render();
    expect(JSON.stringify(transcript)).toContain(CARD);
    expect(html).not.toContain(CARD);
    expect(html).toContain('6222****3445');
  });

  it('is self-contained: no external script, style, image or link', async () => {
    const { html } = await render();
    expect(html).not.toMatch(/\s(src|href)\s*=/i);
    // The SVG namespace names elements; nothing fetches it.
    expect(html.replaceAll(SVG_NAMESPACE, '')).not.toMatch(/https?:\/\//);
    expect(html).toContain("default-src 'none'");
  });

  it('runs only its own script and stylesheet, by their hashes: no inline code from anywhere else', async () => {
    const { html } = await render();
    expect(html).toContain(`content="${htmlCsp()}"`);
    expect(htmlCsp()).not.toContain('unsafe-inline');
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const script = /<script>(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    const style = /<style>(.*?)<\/style>/s.exec(html)?.[1] ?? '';
    expect(htmlCsp()).toContain(`script-src ${hash(script)}`);
    expect(htmlCsp()).toContain(`style-src ${hash(style)}`);
  });

  it('has a page script that compiles', () => {
    expect(() => new Script(viewerScript())).not.toThrow();
  });

  it('embeds each long text that several trials hold once, and recorded text cannot close a data element', async () => {
    const { transcript, html } = await render();
    const result = transcript.turns[0]?.blocks.find((block) => block.kind === 'tool');
    const text = result?.kind === 'tool' ? (result.call.result ?? '') : '';
    expect(text.length).toBeGreaterThan(80);
    const data = embeddedData(html);
    expect(data.model.trials).toHaveLength(3);
    expect(data.details).toHaveLength(3);
    expect(data.texts.filter((entry: string) => entry === text)).toHaveLength(1);
    expect(typeof data.details[0].transcript.system).toBe('number');
    expect(data.details[0].transcript.system).toBe(data.details[1].transcript.system);
    // The model, the viewer, the shared texts and one element per trial.
    expect(html.match(/<\/script>/g)).toHaveLength(3 + 3);
    expect(data.details[0].messages[0]).toContain('</script><b>x</b>');
  });

  it('keeps a long text that one trial alone holds in that trial’s details, even twice', () => {
    const record = makeRecord();
    const text = 'a text no other trial has '.repeat(4);
    const transcript = { system: text, user: 'hi', turns: [], finalAnswer: text };
    const html = renderHtml(reportOf([record]), [
      { record, transcript: { format: 'anthropic-messages', transcript } },
    ]);
    const data = embeddedData(html);
    expect(data.texts).toEqual([]);
    expect(data.details[0].transcript).toMatchObject({ system: text, finalAnswer: text });
  });

  it('shows bidirectional controls as escapes, as the terminal does: text cannot show reordered', async () => {
    const { html } = await render();
    expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(embeddedData(html).details[0].messages[1]).toBe('bidi \\u202eevil\\u202c \\u2067x');
  });

  it('keeps rates as numbers: a long decimal is not taken for a card number', async () => {
    const { html } = await render();
    expect(embeddedData(html).model.rows[0].passAtK['1']).toBeCloseTo(1 / 3, 12);
  });

  it('embeds the transcript of a Chat Completions trial, JSON or streamed, with its format', () => {
    const records = [1, 2].map((trial) => makeRecord({ suite: 'weather', task: 'W1', trial }));
    const html = renderHtml(
      reportOf(records, 2),
      [weatherCassette(), streamedWeatherCassette()].map((cassette, index) => ({
        record: records[index]!,
        transcript: {
          format: 'openai-chat-completions',
          transcript: decodeTranscript(cassette),
        },
      })),
    );
    for (const { format, transcript } of embeddedData(html).details) {
      expect(format).toBe('openai-chat-completions');
      expect(transcript.system).toBe('You report the weather.');
      expect(transcript.user).toBe('What is the weather in Oslo?');
      expect(transcript.turns[0].blocks[0].call).toMatchObject({
        name: 'get_weather',
        result: 'Oslo: 4 °C, rain',
      });
      expect(transcript.finalAnswer).toBe('It is 4 °C and raining in Oslo.');
    }
  });

  it('names a format it cannot decode and embeds the trace, inputs as JSON text', () => {
    const record = makeRecord();
    const trace: TraceEvent[] = [
      { type: 'tool_call', step: 0, tool: 'get_weather', input: { city: 'Oslo' } } as TraceEvent,
    ];
    const html = renderHtml(reportOf([record]), [
      {
        record,
        transcript: {
          format: 'POST /v1/complete',
          undecoded: '2 calls of POST /v1/complete',
          trace,
        },
      },
    ]);
    const [detail] = embeddedData(html).details;
    expect(detail).toMatchObject({ format: 'POST /v1/complete', undecoded: expect.any(String) });
    expect(detail.transcript).toBeUndefined();
    expect(detail.trace[0].input).toBe('{\n  "city": "Oslo"\n}');
  });

  it('gives every variant its Δ against the baseline, with three variants per task', () => {
    const passes: Record<string, number> = { baseline: 0, strict: 2, upgraded: 3 };
    const records = Object.entries(passes).flatMap(([variant, passed]) =>
      [1, 2, 3].map((trial) =>
        makeRecord({ variant, trial, outcome: trial <= passed ? 'passed' : 'failed' }),
      ),
    );
    const trials: HtmlTrial[] = records.map((record) => ({
      record,
      transcript: { unavailable: 'none' },
    }));
    const { model } = embeddedData(renderHtml(reportOf(records), trials));
    const deltas = model.rows.map((row: { variant: string; delta?: { text: string } }) => [
      row.variant,
      row.delta?.text,
    ]);
    expect(deltas).toEqual([
      ['baseline', undefined],
      ['strict', expect.stringMatching(/^\+0\.67 \[/)],
      ['upgraded', expect.stringMatching(/^\+1\.00 \[/)],
    ]);
    expect(model.summary.map((row: { delta?: { against: string } }) => row.delta?.against)).toEqual(
      [undefined, 'baseline', 'baseline'],
    );
  });

  it('marks rows whose trials mixed models or fixture sources, or had fixture problems', () => {
    const records = [
      makeRecord({ trial: 1, model: 'claude-a' }),
      makeRecord({ trial: 2, model: 'claude-b', source: 'live' }),
      makeRecord({ trial: 3, outcome: 'stale', messages: ['stale'] }),
      makeRecord({ variant: 'baseline', trial: 1 }),
    ];
    const trials = records.map((record) => ({
      record,
      transcript: { unavailable: 'none' },
    }));
    const { model } = embeddedData(renderHtml(reportOf(records), trials));
    const marks = Object.fromEntries(
      model.rows.map((row: { variant: string; marks: Array<{ text: string }> }) => [
        row.variant,
        row.marks.map((mark) => mark.text),
      ]),
    );
    expect(marks).toEqual({
      baseline: [],
      upgraded: [
        'mixed models: claude-a, claude-b, claude-sonnet-4-5',
        'mixed fixtures: live + simulator',
        'fixture problems: 1 stale',
      ],
    });
  });
});
