import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const TRIAL_FILE = /^trial-(\d+)\.json$/;

/**
 * Recorded trial numbers per `<task>/<variant>` folder under fixtures/; with `includes`,
 * only the folders it accepts are listed (a run of one task does not list every cassette).
 */
export function inventoryFixtures(
  fixturesDir: string,
  includes: (task: string, variant: string) => boolean = () => true,
): Map<string, number[]> {
  const found = new Map<string, number[]>();
  if (!existsSync(fixturesDir)) return found;
  for (const task of readdirSync(fixturesDir, { withFileTypes: true })) {
    if (!task.isDirectory()) continue;
    for (const variant of readdirSync(join(fixturesDir, task.name), { withFileTypes: true })) {
      if (!variant.isDirectory() || !includes(task.name, variant.name)) continue;
      const trials = readdirSync(join(fixturesDir, task.name, variant.name))
        .map((name) => TRIAL_FILE.exec(name)?.[1])
        .filter((n): n is string => n !== undefined)
        .map(Number)
        .sort((a, b) => a - b);
      found.set(`${task.name}/${variant.name}`, trials);
    }
  }
  return found;
}

/**
 * The folders that hold fewer than `trials` recordings, among those the
 * selection touches: asking for more trials than were recorded is a clear error
 * before anything runs, not a wall of "missing".
 */
export function shortFixtures(
  fixturesDir: string,
  trials: number,
  select: { tasks?: string[]; variants?: string[] } = {},
): Array<{ folder: string; recorded: number }> {
  const tasks = select.tasks?.map((task) => task.toUpperCase());
  const short: Array<{ folder: string; recorded: number }> = [];
  const includes = (task: string, variant: string) =>
    (!tasks || tasks.includes(task.toUpperCase())) &&
    (!select.variants || select.variants.includes(variant));
  for (const [folder, numbers] of inventoryFixtures(fixturesDir, includes)) {
    const recorded = numbers.filter((n) => n <= trials).length;
    if (recorded < trials) short.push({ folder: `fixtures/${folder}`, recorded });
  }
  return short;
}
