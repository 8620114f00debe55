import { describe, expect, it } from 'vitest';
import { readCassette } from '../../replay/cassette-file.js';
import { buildReport } from './build-report.js';
import { renderHtml } from './html.js';
import { streamedWeatherCassette, weatherCassette } from './testing/chat-cassettes.js';
import { makeRecord } from './testing/records.js';
import { decodeTranscript } from './transcript.js';

const CARD = '6222020200112233445';

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
      records.map((record) => ({ record, transcript: { transcript } })),
    ),
  };
}

function embeddedData(html: string) {
  const block = (id: string) =>
    JSON.parse(
      new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, 's').exec(
        html,
      )?.[1] ?? 'null',
    );
  return { model: block('report-model'), ...block('report-trials') };
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
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain("default-src 'none'");
  });

  it('embeds each long text once, and recorded text cannot close the data script', async () => {
    const { transcript, html } = await render();
    const result = transcript.turns[0]?.blocks.find((block) => block.kind === 'tool');
    const text = result?.kind === 'tool' ? (result.call.result ?? '') : '';
    expect(text.length).toBeGreaterThan(80);
    const data = embeddedData(html);
    expect(data.model.trials).toHaveLength(3);
    expect(data.details).toHaveLength(3);
    expect(data.texts.filter((entry: string) => entry === text)).toHaveLength(1);
    expect(data.details[0].transcript.system).toBe(data.details[1].transcript.system);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    expect(data.details[0].messages[0]).toContain('</script><b>x</b>');
  });

  it('shows bidirectional controls as escapes, as the terminal does: text cannot show reordered', async () => {
    const { html } = await render();
    expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(embeddedData(html).details[0].messages[1]).toBe('bidi \\u202eevil\\u202c \\u2067x');
  });

  it('keeps rates as numbers: a long decimal is not taken for a card number', async () => {
    const { html } = await render();
    expect(embeddedData(html).model.scores.rows[0].passAt1).toBeCloseTo(1 / 3, 12);
  });

  it('embeds the transcript of a Chat Completions trial, JSON or streamed', () => {
    const records = [1, 2].map((trial) => makeRecord({ suite: 'weather', task: 'W1', trial }));
    const report = buildReport({
      records,
      trials: 2,
      floors: [],
      generatedAt: '2026-01-09T10:00:00Z',
    });
    const html = renderHtml(
      report,
      [weatherCassette(), streamedWeatherCassette()].map((cassette, index) => ({
        record: records[index]!,
        transcript: { transcript: decodeTranscript(cassette) },
      })),
    );
    for (const { transcript } of embeddedData(html).details) {
      expect(transcript.system).toBe('You report the weather.');
      expect(transcript.user).toBe('What is the weather in Oslo?');
      expect(transcript.turns[0].blocks[0].call).toMatchObject({
        name: 'get_weather',
        result: 'Oslo: 4 °C, rain',
      });
      expect(transcript.finalAnswer).toBe('It is 4 °C and raining in Oslo.');
    }
  });
});
