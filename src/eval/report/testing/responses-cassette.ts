import type { Cassette } from '../../../replay/cassette.js';
import { chatCassette } from './chat-cassettes.js';

/**
 * Test double: an OpenAI Responses API run (`POST /v1/responses`): a function call, then the
 * answer after its output.
 */
export function responsesCassette(): Cassette {
  const call = {
    type: 'function_call',
    call_id: 'call_1',
    name: 'get_weather',
    arguments: '{"city":"Oslo"}',
  };
  const request = (input: unknown[]) => ({
    method: 'POST',
    path: '/v1/responses',
    headers: { 'content-type': 'application/json' },
    body: { model: 'gpt-test', instructions: 'You report the weather.', input },
  });
  const user = { role: 'user', content: 'What is the weather in Oslo?' };
  const answer = {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'It is 4 °C and raining in Oslo.' }],
  };
  return chatCassette([
    {
      request: request([user]),
      response: { status: 200, headers: {}, body: { object: 'response', output: [call] } },
      latencyMs: 120,
    },
    {
      request: request([
        user,
        call,
        { type: 'function_call_output', call_id: 'call_1', output: 'Oslo: 4 °C, rain' },
      ]),
      response: { status: 200, headers: {}, body: { object: 'response', output: [answer] } },
      latencyMs: 90,
    },
  ]);
}
