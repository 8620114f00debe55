import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { benchReportHtml } from './html-report-workload.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const texts = (html: string) =>
  JSON.parse(/<script type="application\/json" id="report-texts">(.*?)<\/script>/s.exec(html)![1]!);

describe('benchReportHtml', () => {
  it('makes one trial per task, variant and trial number from the committed cassettes', async () => {
    const { html, trials } = await benchReportHtml(root, { trials: 2 });
    // 11 task folders (T1-T7, D1-D3a) x 2 variants x 2 trials.
    expect(trials).toBe(44);
    expect(html.match(/<script type="application\/json" id="trial-\d+">/g)).toHaveLength(44);
    // Trial 1 and 2 of a row replay different cassettes, but the system prompts repeat.
    expect(texts(html).length).toBeGreaterThan(0);
  });

  it('shares no text when every text is made unique, and pads the file to about the size asked', async () => {
    const target = 3 * 1024 * 1024;
    const { html } = await benchReportHtml(root, { trials: 2, unique: true, targetBytes: target });
    expect(texts(html)).toEqual([]);
    const size = Buffer.byteLength(html);
    expect(size).toBeGreaterThan(target * 0.95);
    expect(size).toBeLessThan(target * 1.1);
  });
});
