import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { cassettePath } from '../../replay/cassette.js';
import { readCassette } from '../../replay/cassette-file.js';
import { judgeCassettePath, readJudgeCassette } from '../grade/judge-cassette.js';
import type { TrialRequest } from '../trial/trial-driver.js';
import { firstJudgeDifference, judgeRederivedBy, NOT_DERIVABLE, rederive } from './rederive.js';

/**
 * A simulator cassette re-derived in the eval worker with the scripts of the task that owns it
 * (its model script; each judged check's judge script): what only a loaded task file knows.
 * `record --verify` uses it in place of the built-in simulator for that file.
 */
export interface ScriptedVerdict {
  /** Path as shown, e.g. fixtures/H1/upgraded/trial-2.judge.json. */
  fixture: string;
  /** What re-derived it, e.g. "model script 'helpdesk'". */
  by: string;
  problem?: string;
}

/**
 * Re-derive a trial's cassettes with the thing that recorded them offline: its agent cassette
 * with the task's (or agent's) model script, when it has one; its judge cassette with each
 * check's judge script, or the built-in judge for a check without one. Live cassettes, missing
 * and unreadable ones are left to `record --verify`'s own checks.
 */
export async function rederiveWithScripts(request: TrialRequest): Promise<ScriptedVerdict[]> {
  const { task, variant, trial, settings, testCase } = request;
  const { projectDir, fixturesDir } = settings;
  const verdicts: ScriptedVerdict[] = [];
  const script = task.modelScript ?? task.agent.modelScript;
  const file = cassettePath(fixturesDir, task.id, variant, trial, testCase?.id);
  const cassette =
    script && existsSync(file) ? await readQuietly(() => readCassette(file)) : undefined;
  if (script && cassette?.meta.source === 'simulator') {
    const derived = rederive(cassette, [script]);
    const problem = derived.notRederived
      ? `exchange 1: model script '${script.name}' gives no answer to its request`
      : derived.problem;
    const by = `model script '${script.name}'`;
    verdicts.push({
      fixture: relative(projectDir, file),
      by,
      ...(problem && { problem: `${problem} (re-derived with ${by})` }),
    });
  }
  const judgeFile = judgeCassettePath(fixturesDir, task.id, variant, trial, testCase?.id);
  const judges = task.judges ?? [];
  if (!judges.some((judge) => judge.modelScript) || !existsSync(judgeFile)) return verdicts;
  const read = await readQuietly(async () => readJudgeCassette(judgeFile));
  if (read?.cassette.meta.source !== 'simulator') return verdicts;
  const scriptOf = (check: string) => judges.find((judge) => judge.name === check)?.modelScript;
  const names = new Set(
    read.cassette.judgments.map((tape) => judgeRederivedBy(scriptOf(tape.check))),
  );
  const found = firstJudgeDifference(read.cassette, scriptOf);
  const what =
    found?.found === NOT_DERIVABLE ? `${found.by} gives no verdict for its request` : found?.found;
  const problem =
    found &&
    `judge '${found.check}' (${found.model}) sample ${found.sample}: ${what} (re-derived with ${found.by})`;
  verdicts.push({
    fixture: relative(projectDir, judgeFile),
    by: [...names].join(', '),
    ...(problem && { problem }),
  });
  return verdicts;
}

/** Undefined when the file cannot be read: `record --verify` reports why, from its own read. */
async function readQuietly<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch {
    return undefined;
  }
}
