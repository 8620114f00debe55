import { ConfigError } from '../../core/errors.js';
import { checkLabelledTrials } from '../spec/human-labels.js';
import type { JudgeCheck } from '../spec/judge.js';
import { readEvalSettings } from '../spec/settings.js';
import type { TaskDefinition } from '../spec/task-definition.js';
import type { Floor } from '../spec/trial-record.js';

/**
 * A task's judged checks, checked where the task is declared: each made by defineJudge, each
 * name once, and each human-labels file naming only trials of this task that exist (while
 * replaying: a committed cassette; while recording, the variant only).
 */
export function checkJudges(name: string, task: TaskDefinition, variants: readonly string[]) {
  if (task.judges === undefined) return;
  if (!Array.isArray(task.judges)) {
    throw new ConfigError(`${name}: judges must be a list, e.g. judges: [defineJudge({ ... })]`);
  }
  const seen = new Set<string>();
  const settings = readEvalSettings();
  for (const judge of task.judges as unknown[]) {
    if (!isJudgeCheck(judge)) {
      throw new ConfigError(`${name}: each of judges must come from defineJudge({ name, rubric })`);
    }
    if (seen.has(judge.name)) {
      throw new ConfigError(`${name}: two judges are named '${judge.name}': name each once`);
    }
    seen.add(judge.name);
    if (judge.humanLabels) {
      checkLabelledTrials(judge.humanLabels, {
        judge: judge.name,
        task: task.id,
        variants,
        fixturesDir: settings.fixturesDir,
        recorded: settings.mode !== 'record',
      });
    }
  }
}

function isJudgeCheck(value: unknown): value is JudgeCheck {
  if (typeof value !== 'object' || value === null) return false;
  const judge = value as Partial<JudgeCheck>;
  return typeof judge.name === 'string' && typeof judge.rubric === 'string';
}

/** A floor on a mean score names the score, and a score is named only with its floor. */
export function checkScoreFloor(at: string, floor: Floor): void {
  const named = typeof floor.score === 'string' && floor.score !== '';
  if (floor.meanScore !== undefined && !named) {
    throw new ConfigError(
      `${at}: meanScore needs the score it is about, e.g. score: 'polite-refusal', meanScore: 0.7`,
    );
  }
  if (floor.score !== undefined && (!named || floor.meanScore === undefined)) {
    throw new ConfigError(
      `${at}: score ${JSON.stringify(floor.score)} needs meanScore, the minimum mean, e.g. meanScore: 0.7`,
    );
  }
}
