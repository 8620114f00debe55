import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTranscript } from './load-transcripts.js';
import { makeRecord } from './testing/records.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const outside = mkdtempSync(join(tmpdir(), 'outside-project-'));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

describe('loadTranscript', () => {
  it('decodes a committed cassette named relative to the project', async () => {
    const loaded = await loadTranscript(
      makeRecord({ fixture: 'fixtures/T1/upgraded/trial-1.json' }),
      root,
    );
    expect('transcript' in loaded).toBe(true);
  });

  it('names the format and brings the trace along, with or without a cassette', async () => {
    const project = mkdtempSync(join(tmpdir(), 'transcript-project-'));
    try {
      mkdirSync(join(project, 'fixtures'));
      copyFileSync(
        join(root, 'fixtures/T1/upgraded/trial-1.json'),
        join(project, 'fixtures/t.json'),
      );
      const events = [
        { type: 'run_start', run_id: 'r', variant: 'upgraded', model: 'm', mode: 'adapter' },
        { type: 'tool_call', step: 0, tool: 'get_order', input: { order_id: 'ORD1001' } },
      ];
      // A torn last line (a crashed run) is left out.
      writeFileSync(
        join(project, 'trace.jsonl'),
        `${events.map((event) => JSON.stringify(event)).join('\n')}\n{"type":`,
      );
      const loaded = await loadTranscript(
        makeRecord({ fixture: 'fixtures/t.json', tracePath: 'trace.jsonl' }),
        project,
      );
      expect(loaded).toMatchObject({ format: 'anthropic-messages', trace: events });
      const missing = await loadTranscript(
        makeRecord({ fixture: 'fixtures/gone.json', tracePath: 'trace.jsonl' }),
        project,
      );
      expect(missing).toMatchObject({
        unavailable: expect.stringContaining('gone.json'),
        trace: events,
      });
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('reads nothing outside the project, whatever a (shard) record names', async () => {
    // A valid cassette, but outside: a tampered shard file must not pull it into the report.
    const planted = join(outside, 'trial-1.json');
    writeFileSync(planted, '{}');
    for (const fixture of [planted, '../../../etc/passwd', 'fixtures/../../x.json']) {
      const loaded = await loadTranscript(makeRecord({ fixture }), root);
      expect(loaded).toEqual({ unavailable: expect.stringContaining('is outside the project') });
    }
    const withTrace = await loadTranscript(
      makeRecord({ fixture: 'fixtures/T1/upgraded/trial-1.json', tracePath: '/etc/hostname' }),
      root,
    );
    expect(withTrace).toEqual({ unavailable: expect.stringContaining('is outside the project') });
  });
});
