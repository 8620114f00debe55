import { ConfigError, errorMessage } from '../../core/errors.js';
import { checkJudges, checkScoreFloor } from '../grade/task-graders.js';
import { type AgentSpec, checkAgentNames } from '../spec/agent-spec.js';
import { type EvalCase, loadCases } from '../spec/cases.js';
import type { TaskDefinition } from '../spec/task-definition.js';
import { TASK_ID } from '../spec/task-id.js';
import type { Floor } from '../spec/trial-record.js';

// Its own module: the CLI checks --task against it without loading the graders (and zod).
export { TASK_ID };
/**
 * The trials one eval run takes of one task. Each is a vitest test held until the run ends:
 * 10,000 replayed trials of a dataset took 160 s at a peak of 1.1 GB here (2,000: 32 s,
 * 350 MB; about 100 KB and 16 ms each), and 200,000 cases aborted at 8.5 GB with no report.
 */
export const MAX_TASK_TRIALS = 10_000;
const FLOOR_FIELDS = new Set(['variant', 'passAt1', 'passHatK', 'score', 'meanScore']);

/**
 * Refuses a task declaration that would run wrongly rather than fail: evals do not type-check,
 * so what TypeScript would refuse (and what it cannot see, such as a NaN floor that never
 * fails the gate) is refused here, naming the task and the field. Returns the variants to run.
 */
export function checkTaskDeclaration(task: TaskDefinition): readonly string[] {
  if (typeof task.id !== 'string' || !TASK_ID.test(task.id)) {
    const id = typeof task.id === 'string' ? `'${task.id}'` : String(task.id);
    throw new ConfigError(
      `task id ${id} is invalid: use letters, digits, '_' or '-' (it names a fixtures folder)`,
    );
  }
  const name = `task '${task.id}'`;
  const agent = task.agent as AgentSpec | undefined;
  if (typeof agent !== 'object' || agent === null || !('variants' in agent)) {
    throw new ConfigError(
      `${name}: agent must be an agent from defineAgent({ suite, variants, ... })`,
    );
  }
  checkAgentNames(agent);
  if (typeof task.title !== 'string') {
    throw new ConfigError(`${name}: title must be text (the task's name in reports)`);
  }
  checkPrompt(name, task);
  if (typeof task.check !== 'function') {
    throw new ConfigError(
      `${name}: check must be a function ({ answer, toolCalls, stats }) => { expect(...) }`,
    );
  }
  const variants = checkVariants(name, task.variants, agent);
  checkFloors(name, task.floors, variants);
  checkJudges(name, task, variants);
  return variants;
}

/** A task asks one prompt, or (over cases) each case's input or `prompt(case)`. */
function checkPrompt(name: string, task: TaskDefinition): void {
  if (task.cases === undefined) {
    if (typeof task.prompt !== 'string' || task.prompt.trim() === '') {
      throw new ConfigError(`${name}: prompt must be non-empty text (what the agent is asked)`);
    }
    return;
  }
  if (task.prompt !== undefined && typeof task.prompt !== 'function') {
    throw new ConfigError(
      `${name}: a task over cases asks each case's input; leave prompt out, or make it a function of the case: prompt: (testCase) => ...`,
    );
  }
}

/**
 * Refuses a dataset task whose selected cases x variants x trials (this shard's) pass
 * MAX_TASK_TRIALS, in one line naming the file, the counts, the limit and the ways on.
 */
export function checkTaskTrials(
  task: TaskDefinition,
  cases: number,
  plan: ReadonlyArray<{ variantSelected: boolean; trials: readonly unknown[] }>,
): void {
  const trials = plan.reduce((sum, row) => sum + row.trials.length, 0);
  if (trials <= MAX_TASK_TRIALS) return;
  const variants = plan.filter((row) => row.variantSelected).length;
  const perCase = Math.max(1, Math.round(trials / Math.max(1, cases * variants)));
  const source =
    typeof task.cases === 'string' || task.cases instanceof URL ? String(task.cases) : 'cases';
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  throw new ConfigError(
    `task '${task.id}': ${source}: ${plural(cases, 'case')} x ${plural(variants, 'variant')} x ${plural(perCase, 'trial')} is ${trials} trials, past the ${MAX_TASK_TRIALS} one eval run takes of a task: run a sample with --cases ${Math.max(1, Math.floor(MAX_TASK_TRIALS / (variants * perCase)))}, deal it to machines with --shard i/n, or split the dataset into several tasks`,
  );
}

/**
 * The task's cases, read and checked (cases.ts), each with a prompt: text input, or the
 * task's `prompt(case)` giving non-empty text. A problem names the task, the case and the fix.
 */
export function checkedCases(task: TaskDefinition, projectDir: string): EvalCase[] {
  const name = `task '${task.id}'`;
  let cases: EvalCase[];
  try {
    cases = loadCases(task.cases!, projectDir);
  } catch (error) {
    throw new ConfigError(`${name}: ${errorMessage(error)}`);
  }
  for (const testCase of cases) {
    let prompt: unknown;
    try {
      prompt = typeof task.prompt === 'function' ? task.prompt(testCase) : testCase.input;
    } catch (error) {
      throw new ConfigError(`${name}: prompt(case '${testCase.id}') threw: ${errorMessage(error)}`);
    }
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      throw new ConfigError(
        `${name}: case '${testCase.id}' gives no prompt (${typeof task.prompt === 'function' ? 'prompt(case)' : 'its input'} is not non-empty text): give the case an input text, or the task prompt: (testCase) => ...`,
      );
    }
  }
  return cases;
}

function checkVariants(
  name: string,
  variants: readonly string[] | undefined,
  agent: AgentSpec,
): readonly string[] {
  if (variants === undefined) return agent.variants;
  if (!Array.isArray(variants) || variants.length === 0) {
    throw new ConfigError(
      `${name}: variants is empty; leave it out to run every variant of the agent`,
    );
  }
  const seen = new Set<string>();
  for (const variant of variants) {
    if (!agent.variants.includes(variant)) {
      throw new ConfigError(
        `${name}: variant '${String(variant)}' is not a variant of agent ${agent.suite} (${agent.variants.join(', ')})`,
      );
    }
    // Both would write fixtures/<task>/<variant>/trial-N.json, at the same time.
    if (seen.has(variant)) throw new ConfigError(`${name}: variant '${variant}' is listed twice`);
    seen.add(variant);
  }
  return variants;
}

function checkFloors(name: string, floors: unknown, variants: readonly string[]): void {
  if (floors === undefined) return;
  if (!Array.isArray(floors)) {
    throw new ConfigError(
      `${name}: floors must be a list, e.g. floors: [{ variant: 'upgraded', passAt1: 0.6 }]`,
    );
  }
  floors.forEach((floor: unknown, index) => {
    const where = `${name}: floors[${index}]`;
    if (typeof floor !== 'object' || floor === null || Array.isArray(floor)) {
      throw new ConfigError(
        `${where} must be an object such as { variant: 'upgraded', passAt1: 0.6 }`,
      );
    }
    const { variant } = floor as Partial<Floor>;
    if (typeof variant !== 'string' || !variants.includes(variant)) {
      throw new ConfigError(
        `${where} names variant ${typeof variant === 'string' ? `'${variant}'` : String(variant)}, which the task does not run; its variants are ${variants.join(', ')}`,
      );
    }
    const at = `${where} (variant '${variant}')`;
    const unknown = Object.keys(floor).find((key) => !FLOOR_FIELDS.has(key));
    if (unknown !== undefined) {
      throw new ConfigError(
        `${at} has the unknown field '${unknown}'; a floor has variant, passAt1, passHatK, score and meanScore`,
      );
    }
    let rates = 0;
    for (const field of ['passAt1', 'passHatK', 'meanScore'] as const) {
      if (!(field in floor)) continue;
      const value = (floor as Record<string, unknown>)[field];
      // NaN compares as "not comparable" and null as "no value": neither ever failed the gate.
      if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
        const shown = typeof value === 'string' ? `'${value}'` : String(value);
        throw new ConfigError(
          `${at}: ${field} ${shown} is not a number from 0 to 1; write the minimum rate, e.g. ${field}: 0.6`,
        );
      }
      rates += 1;
    }
    if (rates === 0) {
      throw new ConfigError(
        `${at} sets no minimum; add passAt1, passHatK or meanScore, e.g. passAt1: 0.6`,
      );
    }
    checkScoreFloor(at, floor as Floor);
  });
}
