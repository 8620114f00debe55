import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_IN_PRICES } from './price-table.js';
import { priceOf } from './prices.js';
import { priceTable, readPricesFile } from './prices-file.js';

const dirs: string[] = [];
async function project(prices?: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'prices-'));
  dirs.push(dir);
  if (prices !== undefined) await writeFile(join(dir, 'harness-evals.prices.json'), prices);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the built-in price table', () => {
  it('prices Anthropic cache writes at 1.25x input (5 minutes) or 2x (1 hour), reads at 0.1x', () => {
    const anthropic = Object.entries(BUILT_IN_PRICES).filter(([model]) =>
      model.startsWith('claude'),
    );
    expect(anthropic.length).toBeGreaterThanOrEqual(4);
    for (const [, price] of anthropic) {
      expect(price.cacheWrite).toBeCloseTo(price.input * 1.25, 10);
      expect(price.cacheWrite1h).toBeCloseTo(price.input * 2, 10);
      expect(price.cacheRead).toBeCloseTo(price.input * 0.1, 10);
    }
  });

  it('charges OpenAI cache writes as plain input, and cached input below it', () => {
    const openai = Object.entries(BUILT_IN_PRICES).filter(([model]) => model.startsWith('gpt'));
    expect(openai.map(([model]) => model)).toEqual(
      expect.arrayContaining(['gpt-4.1', 'gpt-4.1-mini', 'gpt-5-mini']),
    );
    for (const [, price] of openai) {
      expect(price.cacheWrite).toBe(price.input);
      expect(price.cacheRead).toBeLessThan(price.input);
    }
  });

  it('has no price for a model it does not know, judge prefixes and snapshot dates aside', () => {
    const table = priceTable();
    expect(priceOf(table, 'claude-opus-5')).toBeUndefined();
    expect(priceOf(table, undefined)).toBeUndefined();
    expect(priceOf(table, 'openai:gpt-5-mini')?.input).toBe(0.25);
    expect(priceOf(table, 'gpt-4.1-mini-2025-04-14')?.output).toBe(1.6);
    expect(priceOf(table, 'claude-haiku-4-5-20251001')?.cacheRead).toBe(0.1);
  });
});

describe('readPricesFile', () => {
  it('reads none when the project has no prices file', async () => {
    expect(await readPricesFile(await project())).toBeUndefined();
  });

  it('reads a model the table lacks, dated', async () => {
    const dir = await project(
      JSON.stringify({
        checkedOn: '2026-12-07',
        models: { 'claude-opus-5': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 } },
      }),
    );
    const table = priceTable(await readPricesFile(dir));
    expect(priceOf(table, 'claude-opus-5')).toMatchObject({ input: 5, cacheWrite: 6.25 });
  });

  it('refuses a price that is missing or wrong, naming the file and the field', async () => {
    const missing = await project(
      JSON.stringify({ models: { 'claude-opus-5': { input: 5, output: 25, cacheRead: 0.5 } } }),
    );
    await expect(readPricesFile(missing)).rejects.toThrow(
      /^harness-evals\.prices\.json: models\.claude-opus-5\.cacheWrite: /,
    );
    const negative = await project(
      JSON.stringify({
        models: { 'gpt-x': { input: -1, output: 1, cacheWrite: 1, cacheRead: 1 } },
      }),
    );
    await expect(readPricesFile(negative)).rejects.toThrow(
      /^harness-evals\.prices\.json: models\.gpt-x\.input: /,
    );
    const extra = await project(JSON.stringify({ models: {}, currency: 'EUR' }));
    await expect(readPricesFile(extra)).rejects.toThrow(/^harness-evals\.prices\.json: .*currency/);
  });

  it('refuses a file that is not JSON, or not a file', async () => {
    await expect(readPricesFile(await project('{ models: '))).rejects.toThrow(
      /^harness-evals\.prices\.json: not valid JSON .*see docs\/numbers\.md/,
    );
    const dir = await project();
    await mkdir(join(dir, 'harness-evals.prices.json'));
    await expect(readPricesFile(dir)).rejects.toThrow(
      'harness-evals.prices.json cannot be read: a directory, not a regular file',
    );
  });
});
