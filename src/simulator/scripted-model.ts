import type Anthropic from '@anthropic-ai/sdk';
import type { MessageRequest, ModelClient } from '../model-api/model-client.js';

export type ScriptedTurn = Anthropic.Message | ((request: MessageRequest) => Anthropic.Message);

export interface ScriptedModel extends ModelClient {
  /** Every request the loop sent, in order (deep copies). */
  readonly requests: MessageRequest[];
  /** Throws when scripted turns were left unused. */
  assertDone(): void;
}

/**
 * A deterministic model double: answers with the scripted turns in order and
 * fails loudly on a call past the script or (via `assertDone`) on leftover turns.
 */
export function createScriptedModel(turns: readonly ScriptedTurn[]): ScriptedModel {
  const requests: MessageRequest[] = [];
  return {
    requests,
    async createMessage(request) {
      requests.push(structuredClone(request));
      const turn = turns[requests.length - 1];
      if (turn === undefined) {
        throw new Error(
          `scripted model: unexpected call #${requests.length}; the script has ${turns.length} turns`,
        );
      }
      return typeof turn === 'function' ? turn(request) : turn;
    },
    assertDone() {
      if (requests.length !== turns.length) {
        throw new Error(
          `scripted model: ${turns.length - requests.length} scripted turns left unused (${requests.length} of ${turns.length} called)`,
        );
      }
    },
  };
}

const usage = (input: number, output: number): Anthropic.Usage =>
  ({
    input_tokens: input,
    output_tokens: output,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  }) as Anthropic.Usage;

function message(
  content: Anthropic.ContentBlock[],
  stopReason: Anthropic.StopReason | string,
  tokens: [number, number],
): Anthropic.Message {
  return {
    id: 'msg_scripted',
    type: 'message',
    role: 'assistant',
    model: 'scripted',
    content,
    stop_reason: stopReason as Anthropic.StopReason,
    stop_sequence: null,
    usage: usage(...tokens),
  } as Anthropic.Message;
}

/** A final answer (`end_turn`), or another stop reason. */
export function textTurn(
  text: string,
  stopReason: Anthropic.StopReason | string = 'end_turn',
  tokens: [number, number] = [100, 20],
): Anthropic.Message {
  return message(
    [{ type: 'text', text, citations: null } as Anthropic.TextBlock],
    stopReason,
    tokens,
  );
}

let nextId = 0;
const newToolUseId = () => {
  nextId += 1;
  return `toolu_scripted_${nextId}`;
};

/** One turn with tool calls (`tool_use`); calls of one turn may run in parallel. */
export function toolTurn(
  calls: ReadonlyArray<{ name: string; input: unknown; id?: string }>,
  tokens: [number, number] = [100, 20],
): Anthropic.Message {
  const blocks = calls.map(
    (call) =>
      ({
        type: 'tool_use',
        id: call.id ?? newToolUseId(),
        name: call.name,
        input: call.input,
      }) as Anthropic.ToolUseBlock,
  );
  return message(blocks, 'tool_use', tokens);
}
