import { callWithin, DeadlinePassedError } from '../core/bounded-call.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import { valueOrKind } from '../core/value-kind.js';
import { DEFAULT_MODEL_TIMEOUT_MS, modelTimeoutFrom } from '../model-api/call-deadline.js';
import { checkPassRate, type PassRate, passRateFor, trialPasses } from './pass-rate.js';
import type { Policy, Turn, TurnBlock } from './policy.js';
import type { SimRequest } from './request.js';
import { createRng, type Rng } from './rng.js';

/** One model turn of a script: tool calls (any number), then or else text. */
export interface ScriptTurn {
  text?: string;
  toolCalls?: ReadonlyArray<{ name: string; input: Record<string, unknown> }>;
}

/** What a script function sees of a request, the same for the Messages API and Chat Completions. */
export interface ScriptRequest {
  /** The first user message: the task prompt. */
  prompt: string;
  system: string;
  tools: readonly string[];
  /** Assistant turns already in the conversation (0 on the first request). */
  turn: number;
  /** Every tool call so far with its result, in order. */
  toolResults: ReadonlyArray<{
    name: string;
    input: unknown;
    result?: { text: string; isError: boolean };
  }>;
  /** `<task>/<variant>/<trial>` when recording: draws from `random` are seeded by it. */
  seed: string;
  /**
   * Whether this trial should pass: drawn once per trial from the seed with the script's
   * `passRate` for this variant (the same on every turn); true when it gives none.
   */
  passes: boolean;
}

export type ModelScriptOptions =
  | { name?: string; turns: readonly ScriptTurn[] }
  | {
      name?: string;
      /**
       * A chosen pass probability, for every variant or per variant (`{ upgraded: 0.7 }`):
       * `request.passes` is true in that share of trials, reproducibly from the seed.
       */
      passRate?: PassRate;
      /** Return undefined when the script has no answer: recording then fails, naming the task. */
      respond: (request: ScriptRequest, random: Rng) => ScriptTurn | undefined;
    };

/**
 * An offline model for your own agent: `harness-evals record --simulated` serves it on
 * 127.0.0.1 in the agent's wire format (Messages API or Chat Completions, JSON or SSE), so
 * fixtures need no API key. Set it as `modelScript` of the agent or the task.
 *
 * @example
 * export const weatherModel = defineModelScript({ turns: [
 *   { toolCalls: [{ name: 'get_weather', input: { city: 'Oslo' } }] },
 *   { text: 'It is 4 °C and raining in Oslo.' },
 * ] });
 */
export function defineModelScript(options: ModelScriptOptions): ScriptPolicy {
  const name = options.name ?? 'model-script';
  if ('turns' in options) {
    if (options.turns.length === 0) {
      throw new ConfigError(`model script '${name}' has no turns: add at least one { text }`);
    }
    for (const [index, turn] of options.turns.entries()) {
      const problem = turnProblem(turn);
      if (problem) throw new ConfigError(`model script '${name}' turn ${index + 1} ${problem}`);
    }
    return {
      name,
      matches: (request) => request.assistantTurns < options.turns.length,
      next: (request) => toTurn(options.turns[request.assistantTurns]!),
      problemFor: () => undefined,
    };
  }
  const passRate = checkPassRate(options.passRate, `model script '${name}'`);
  // The user's function runs once per request: `matches` keeps its answer for `next`. Draws
  // are a pure function of (seed, turn, name), so the rng `next` is given would draw the same.
  const answers = new WeakMap<SimRequest, ScriptTurn | undefined>();
  // Why a trial's request got no answer (by seed: trials share the script), for its one line.
  const problems = new Map<string, string>();
  const answerOf = (request: SimRequest) => {
    if (!answers.has(request)) {
      const random = createRng(request.seed, request.assistantTurns);
      const answered = callScript(() =>
        options.respond(scriptRequestOf(request, passRate), random),
      );
      if ('problem' in answered && !problems.has(request.seed)) {
        problems.set(request.seed, `${answered.problem} (request ${request.assistantTurns + 1})`);
      }
      answers.set(request, 'turn' in answered ? answered.turn : undefined);
    }
    return answers.get(request);
  };
  return {
    name,
    matches: (request) => answerOf(request) !== undefined,
    next: (request) => toTurn(answerOf(request) ?? { text: '' }),
    problemFor: (seed) => problems.get(seed),
  };
}

/** A model script's policy; `problemFor(seed)` says why a trial's request got no answer. */
export interface ScriptPolicy extends Policy {
  problemFor(seed: string): string | undefined;
}

/**
 * The script function's answer, or why there is none: it ran past the model call deadline
 * (`--model-timeout`, default 600 s; a synchronous loop is stopped, which a timer could not do),
 * threw, or returned something that is not an answer (`42`, `{}`, a promise). Undefined, the
 * script's own "no answer", is an answer of none. The answer is read (copied) under the same
 * deadline: a getter or a Proxy in it that loops is stopped too.
 */
function callScript(call: () => unknown): { turn: ScriptTurn | undefined } | { problem: string } {
  let value: unknown;
  try {
    value = callWithin(() => plainCopy(call()), scriptDeadlineMs());
  } catch (error) {
    return { problem: scriptProblemOf(error) };
  }
  if (value === undefined) return { turn: undefined };
  const problem = turnProblem(value);
  return problem ? { problem } : { turn: value as ScriptTurn };
}

/** The deadline of one script call: the model call deadline (`--model-timeout`). */
export function scriptDeadlineMs(): number {
  return modelTimeoutFrom(process.env) ?? DEFAULT_MODEL_TIMEOUT_MS;
}

/** Why a script call gave no answer, phrased after the script's name. */
export function scriptProblemOf(error: unknown): string {
  if (error instanceof DeadlinePassedError) {
    return `ran past the model call deadline (${error.timeoutMs / 1000} s, --model-timeout) and was stopped: does it loop forever?`;
  }
  return `threw: ${errorMessage(error)}`;
}

/**
 * A script's answer as plain data (its JSON read back), so that nothing read later can run the
 * script's code again; a promise and what JSON cannot write (a function) stay as they are, for
 * turnProblem to name.
 */
export function plainCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) {
    const text = typeof value === 'function' ? undefined : JSON.stringify(value);
    return text === undefined ? value : JSON.parse(text);
  }
  if (typeof (value as { then?: unknown }).then === 'function') return value;
  return JSON.parse(JSON.stringify(value));
}

/** Why `value` is not a ScriptTurn, phrased after "the script returned ..."; undefined when it is one. */
function turnProblem(value: unknown): string | undefined {
  const fix =
    'answer { text: "..." } and/or { toolCalls: [{ name, input }] } (undefined: no answer)';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `returned ${valueOrKind(value)}, not an answer: ${fix}`;
  }
  if (typeof (value as { then?: unknown }).then === 'function') {
    return `returned a promise: a script answers synchronously; ${fix}`;
  }
  const { text, toolCalls, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    return `returned an answer with ${unknown.map((key) => `'${key}'`).join(', ')}: ${fix}`;
  if (text !== undefined && typeof text !== 'string')
    return `returned text ${valueOrKind(text)}: ${fix}`;
  if (toolCalls !== undefined && !Array.isArray(toolCalls)) {
    return `returned toolCalls ${valueOrKind(toolCalls)}, not a list: ${fix}`;
  }
  for (const [index, call] of (toolCalls ?? []).entries()) {
    const { name, input } = (call ?? {}) as { name?: unknown; input?: unknown };
    const plain = typeof input === 'object' && input !== null && !Array.isArray(input);
    if (typeof name !== 'string' || name === '' || !plain) {
      return `returned toolCalls[${index}] ${valueOrKind(call)}, not { name, input } with a name and an input object: ${fix}`;
    }
  }
  if (!text && (toolCalls?.length ?? 0) === 0) return `returned an empty answer: ${fix}`;
  return undefined;
}

function toTurn(turn: ScriptTurn): Turn {
  const blocks: TurnBlock[] = [];
  if (turn.text) blocks.push({ type: 'text', text: turn.text });
  for (const call of turn.toolCalls ?? []) {
    blocks.push({ type: 'tool_use', name: call.name, input: call.input });
  }
  if (blocks.length === 0) blocks.push({ type: 'text', text: '' });
  return { blocks };
}

export function scriptRequestOf(request: SimRequest, passRate?: PassRate): ScriptRequest {
  const rate = passRateFor(passRate, request.seed);
  return {
    prompt: request.firstUserText,
    system: request.systemText,
    tools: request.toolNames,
    turn: request.assistantTurns,
    toolResults: request.exchanges.map((exchange) => ({
      name: exchange.name,
      input: exchange.input,
      ...(exchange.result && { result: exchange.result }),
    })),
    seed: request.seed,
    passes: rate === undefined || trialPasses(request.seed, rate),
  };
}
