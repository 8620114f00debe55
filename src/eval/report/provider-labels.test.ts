import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { htmlModel } from './html-model.js';
import { renderMarkdown } from './markdown.js';
import { buildReportModel } from './report-model.js';
import { renderTerminal } from './terminal.js';
import { makeRecord } from './testing/records.js';

const build = (records: ReturnType<typeof makeRecord>[]) =>
  buildReport({ records, trials: 2, floors: [], generatedAt: '2026-01-09T10:00:00Z' });

describe('labels name the real provider and host', () => {
  it('calls an OpenAI agent recorded from api.openai.com the live OpenAI API, never Anthropic', () => {
    const report = build(
      [1, 2].map((trial) =>
        makeRecord({
          trial,
          source: 'live',
          provider: 'openai',
          host: 'api.openai.com',
          model: 'gpt-4.1-mini',
        }),
      ),
    );
    for (const text of [renderTerminal(report), renderMarkdown(report)]) {
      expect(text).toContain('recorded from the live OpenAI API');
      expect(text).toContain('live OpenAI API (api.openai.com)');
      expect(text).not.toContain('Anthropic');
    }
  });

  it('names each provider of a mixed run, and a gateway or a local server as such', () => {
    const report = build([
      makeRecord({ task: 'T1', source: 'live', provider: 'anthropic', host: 'api.anthropic.com' }),
      makeRecord({ task: 'T2', source: 'live', provider: 'openai', host: 'gateway.example:8443' }),
      makeRecord({ task: 'T3', source: 'live', provider: 'openai', host: '127.0.0.1:4100' }),
    ]);
    const text = renderTerminal(report);
    expect(text).toContain('recorded from the live Anthropic and OpenAI APIs');
    expect(text).toContain('live Anthropic API (api.anthropic.com)');
    expect(text).toContain('live OpenAI API, through gateway.example (not api.openai.com)');
    expect(text).toContain(
      'recorded against a local server at 127.0.0.1, not the public OpenAI API',
    );
  });
});

describe('a row whose trials used different models', () => {
  const report = build([
    makeRecord({ trial: 1, model: 'claude-opus-5' }),
    makeRecord({ trial: 2, model: 'gpt-4.1-mini' }),
    makeRecord({ task: 'T2', trial: 1, model: 'claude-opus-5' }),
  ]);
  const note =
    '⚠ T1 upgraded: its trials used different models (claude-opus-5, gpt-4.1-mini), so its rates mix them; re-record it with one --model';

  it('is flagged in the JSON and in the terminal, markdown and HTML reports', () => {
    expect(report.tasks.find((row) => row.task === 'T1')?.mixedModels).toEqual([
      'claude-opus-5',
      'gpt-4.1-mini',
    ]);
    expect(report.tasks.find((row) => row.task === 'T2')?.mixedModels).toBeUndefined();
    const terminal = renderTerminal(report);
    expect(terminal).toMatch(/│ T1 ⚠ +│ upgraded/);
    expect(terminal.replace(/\s+/g, ' ')).toContain(note);
    expect(renderMarkdown(report)).toContain(`| T1 ⚠ |`);
    expect(renderMarkdown(report)).toContain(`- ${note}`);
    // The page marks the row from the model it embeds.
    const marks = htmlModel(buildReportModel(report)).rows.map((row) => [row.task, row.marks]);
    expect(marks).toEqual([
      [
        'T1',
        [
          expect.objectContaining({
            kind: 'mixed-models',
            text: 'mixed models: claude-opus-5, gpt-4.1-mini',
          }),
        ],
      ],
      ['T2', []],
    ]);
  });
});
