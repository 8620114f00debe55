import type { SimRequest } from './request.js';
import type { Rng } from './rng.js';

export type TurnBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; name: string; input: Record<string, unknown> };

/** What the simulated model says next; `stop_reason` is `tool_use` when any block is one. */
export interface Turn {
  blocks: TurnBlock[];
}

/**
 * A scripted behaviour for one kind of agent. The first policy whose `matches` is true
 * answers; `next` must be a pure function of the request and the draws.
 *
 * @example
 * const echo: Policy = {
 *   name: 'echo',
 *   matches: (request) => request.toolNames.length === 0,
 *   next: (request) => answer(request.firstUserText),
 * };
 */
export interface Policy {
  name: string;
  matches(request: SimRequest): boolean;
  next(request: SimRequest, rng: Rng): Turn;
  /** Why this policy gave the trial or sample of `seed` no answer, when it knows (a script that looped or threw). */
  problemFor?(seed: string): string | undefined;
}

/** A final text answer (end_turn). */
export function answer(text: string): Turn {
  return { blocks: [{ type: 'text', text }] };
}

/** One or more tool calls in one turn, optionally after a short sentence. */
export function callTools(
  calls: ReadonlyArray<{ name: string; input: Record<string, unknown> }>,
  preface?: string,
): Turn {
  const blocks: TurnBlock[] = preface ? [{ type: 'text', text: preface }] : [];
  for (const call of calls) blocks.push({ type: 'tool_use', name: call.name, input: call.input });
  return { blocks };
}

/** Answers any request no other policy matches. */
export const plainTextPolicy: Policy = {
  name: 'plain-text',
  matches: () => true,
  next: (_request, rng) =>
    answer(
      rng.pick('phrase', [
        'Hello! I am the harness-evals simulator. No scripted policy matches this request, so this is a plain text answer.',
        'This is the harness-evals simulator: no scripted policy matches this request, so I can only reply in plain text.',
      ]),
    ),
};
