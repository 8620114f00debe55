import { join } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { parseWith } from '../../core/parse.js';
import { readRegularFile, whyUnreadable } from '../../core/regular-file.js';
import { BUILT_IN_PRICES, PRICES_ENTERED_ON, PRICES_FILE } from './price-table.js';
import { type PricedModel, type PricesFile, PricesFileSchema } from './prices.js';

/** Where the built-in prices came from, as reports name it. */
export const BUILT_IN_FROM = `built in, entered by hand ${PRICES_ENTERED_ON}: check them`;

/**
 * The prices a project uses: the built-in table, with `harness-evals.prices.json`'s models added
 * or replaced (a model given there replaces its whole built-in entry).
 */
export function priceTable(file?: PricesFile): Map<string, PricedModel> {
  const table = new Map<string, PricedModel>();
  for (const [model, price] of Object.entries(BUILT_IN_PRICES)) {
    table.set(model, { ...price, from: BUILT_IN_FROM });
  }
  const from = `${PRICES_FILE}${file?.checkedOn ? `, checked ${file.checkedOn}` : ''}`;
  for (const [model, price] of Object.entries(file?.models ?? {}))
    table.set(model, { ...price, from });
  return table;
}

/**
 * Read `harness-evals.prices.json` from the project, when there is one.
 *
 * @throws ConfigError naming the file and the first wrong field, e.g.
 *   "harness-evals.prices.json: models.claude-opus-5.cacheRead: ..."
 */
export async function readPricesFile(projectDir: string): Promise<PricesFile | undefined> {
  let text: string;
  try {
    text = (await readRegularFile(join(projectDir, PRICES_FILE))).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`${PRICES_FILE} cannot be read: ${whyUnreadable(error)}`, {
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `${PRICES_FILE}: not valid JSON (${(error as Error).message}); see docs/numbers.md, "What the trials cost"`,
      { cause: error },
    );
  }
  return parseWith(PricesFileSchema, data, PRICES_FILE);
}
