import { ConfigError } from '../../core/errors.js';
import { PROVIDER_DEFAULTS } from '../../model-api/provider.js';
import type { AgentSpec } from './agent-spec.js';

/**
 * What `--model` asked for: one model for every agent (`--model ID`), and models for named
 * agents (`--model SUITE=ID`), which win over it.
 */
export interface ModelChoice {
  all?: string;
  bySuite: Readonly<Record<string, string>>;
}

export const NO_MODEL_CHOICE: ModelChoice = { bySuite: {} };

/**
 * `--model` values, each `ID` or `SUITE=ID` (comma-separated or given again). A second `ID`
 * for everyone, a suite named twice, or an empty side is refused, naming the flag.
 */
export function parseModelFlags(values: readonly string[]): ModelChoice {
  let all: string | undefined;
  const bySuite: Record<string, string> = Object.create(null);
  for (const item of values.flatMap((value) => value.split(',')).map((part) => part.trim())) {
    const at = item.indexOf('=');
    const [suite, model] =
      at < 0 ? [undefined, item] : [item.slice(0, at).trim(), item.slice(at + 1).trim()];
    if (model === '' || suite === '') {
      throw new ConfigError(
        `--model takes a model id or SUITE=ID (e.g. --model gpt-4.1-mini or --model refund-desk=claude-opus-5), got '${item}'`,
      );
    }
    if (suite === undefined) {
      if (all !== undefined) {
        throw new ConfigError(
          `--model names two models for every agent ('${all}', '${model}'): give one, and SUITE=ID for the others`,
        );
      }
      all = model;
    } else {
      if (bySuite[suite] !== undefined) throw new ConfigError(`--model names suite ${suite} twice`);
      bySuite[suite] = model;
    }
  }
  return { ...(all !== undefined && { all }), bySuite: { ...bySuite } };
}

/** The choice as one environment variable for the eval workers (JSON: model ids may hold ':' or '/'). */
export function encodeModelChoice(choice: ModelChoice): string | undefined {
  if (choice.all === undefined && Object.keys(choice.bySuite).length === 0) return undefined;
  return JSON.stringify(choice);
}

/** The environment variable back; a plain id (an older launcher, a user's own script) is every agent's. */
export function decodeModelChoice(text: string | undefined): ModelChoice {
  if (!text) return NO_MODEL_CHOICE;
  try {
    const parsed = JSON.parse(text) as Partial<ModelChoice>;
    if (typeof parsed === 'object' && parsed !== null && typeof parsed.bySuite === 'object') {
      return {
        ...(typeof parsed.all === 'string' && { all: parsed.all }),
        bySuite: { ...parsed.bySuite },
      };
    }
  } catch {
    // Not JSON: one model id.
  }
  return { all: text, bySuite: {} };
}

/** The model `--model` asked for this agent, if it asked: replay's override of the recorded model. */
export function chosenModel(choice: ModelChoice, suite: string): string | undefined {
  return Object.hasOwn(choice.bySuite, suite) ? choice.bySuite[suite] : choice.all;
}

/**
 * The model an agent records with: `--model SUITE=ID`, else `--model ID`, else the agent's own
 * `model`, else its provider's model variable (ANTHROPIC_MODEL, OPENAI_MODEL), else the
 * provider's default. Never another provider's default.
 */
export function recordingModel(
  choice: ModelChoice,
  agent: Pick<AgentSpec, 'suite' | 'provider' | 'model'>,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const defaults = PROVIDER_DEFAULTS[agent.provider ?? 'anthropic'];
  return (
    chosenModel(choice, agent.suite) ??
    agent.model ??
    (env[defaults.modelEnv] || undefined) ??
    defaults.defaultModel
  );
}

/** The suites `--model SUITE=ID` names that no agent of the run has: a typo, never silently ignored. */
export function unknownModelSuites(choice: ModelChoice, known: ReadonlySet<string>): string[] {
  return Object.keys(choice.bySuite).filter((suite) => !known.has(suite));
}
