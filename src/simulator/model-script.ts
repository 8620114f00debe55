import { ConfigError } from '../core/errors.js';
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
}

export type ModelScriptOptions =
  | { name?: string; turns: readonly ScriptTurn[] }
  | {
      name?: string;
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
export function defineModelScript(options: ModelScriptOptions): Policy {
  const name = options.name ?? 'model-script';
  if ('turns' in options) {
    if (options.turns.length === 0) {
      throw new ConfigError(`model script '${name}' has no turns: add at least one { text }`);
    }
    return {
      name,
      matches: (request) => request.assistantTurns < options.turns.length,
      next: (request) => toTurn(options.turns[request.assistantTurns]!),
    };
  }
  // The user's function runs once per request: `matches` keeps its answer for `next`. Draws
  // are a pure function of (seed, turn, name), so the rng `next` is given would draw the same.
  const answers = new WeakMap<SimRequest, ScriptTurn | undefined>();
  const answerOf = (request: SimRequest) => {
    if (!answers.has(request)) {
      const random = createRng(request.seed, request.assistantTurns);
      answers.set(request, options.respond(scriptRequestOf(request), random));
    }
    return answers.get(request);
  };
  return {
    name,
    matches: (request) => answerOf(request) !== undefined,
    next: (request) => toTurn(answerOf(request) ?? { text: '' }),
  };
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

export function scriptRequestOf(request: SimRequest): ScriptRequest {
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
  };
}
