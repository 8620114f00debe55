import { describe, expect, it } from 'vitest';
import { responseProblem } from './responses-check.js';
import { foldResponsesStream } from './responses-stream.js';
import { isRetriedAnswer } from './retryable-answer.js';
import type { SseEvent } from './sse.js';

const event = (data: Record<string, unknown>): SseEvent => ({ event: String(data.type), data });
const call = {
  type: 'function_call',
  id: 'fc_1',
  call_id: 'call_1',
  name: 'get_weather',
  arguments: '{"city":"Oslo"}',
};
const message = {
  type: 'message',
  id: 'msg_1',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Rain.' }],
};
const completed = (output: unknown[]) =>
  event({
    type: 'response.completed',
    response: {
      object: 'response',
      status: 'completed',
      output,
      usage: { input_tokens: 9, output_tokens: 3 },
    },
  });

describe('responseProblem', () => {
  it('takes a response and names the first field a client cannot read', () => {
    expect(
      responseProblem({ object: 'response', status: 'completed', output: [message, call] }),
    ).toBeUndefined();
    expect(responseProblem('<html>')).toMatch(/text, not a JSON object/);
    expect(responseProblem({ output: 'no' })).toBe('output is a string, not an array');
    expect(responseProblem({ output: [{ ...call, arguments: { city: 'Oslo' } }] })).toBe(
      'output[0].arguments is an object, not a string',
    );
    expect(responseProblem({ output: [call, { ...call, id: 'fc_2' }] })).toMatch(
      /output\[1\]\.call_id 'call_1' is the call_id of output\[0\] too/,
    );
    expect(responseProblem({ output: [], usage: { input_tokens: '9', output_tokens: 1 } })).toMatch(
      /usage\.input_tokens is a string, not a whole number/,
    );
    expect(responseProblem({ output: [], status: 'thinking' })).toMatch(/status is 'thinking'/);
  });
});

describe('foldResponsesStream', () => {
  it('takes the response of the terminal event and builds the output from item and delta events', () => {
    const fold = foldResponsesStream([
      event({ type: 'response.created', response: { status: 'in_progress', output: [] } }),
      event({
        type: 'response.output_item.added',
        output_index: 0,
        item: { ...call, arguments: '' },
      }),
      event({
        type: 'response.function_call_arguments.delta',
        item_id: 'fc_1',
        output_index: 0,
        delta: '{"city":',
      }),
      event({
        type: 'response.function_call_arguments.delta',
        item_id: 'fc_1',
        output_index: 0,
        delta: '"Oslo"}',
      }),
      completed([call]),
    ]);
    expect(fold.problem).toBeUndefined();
    expect(fold.response?.output).toEqual([call]);
    expect(fold.output[0]?.arguments).toBe('{"city":"Oslo"}');
  });

  it('calls a stream without its terminal event, or with data that is not JSON, no answer', () => {
    expect(foldResponsesStream([event({ type: 'response.created', response: {} })]).problem).toBe(
      'the stream ended before response.completed',
    );
    expect(foldResponsesStream([{ event: 'message', data: 'oops' }, completed([])]).problem).toBe(
      'event 1 is not JSON',
    );
  });

  it('reads an error event and a failed response as the status their code stands for', () => {
    const limited = foldResponsesStream([
      event({ type: 'error', code: 'rate_limit_exceeded', message: 'slow down' }),
    ]);
    expect(limited.error).toEqual({
      detail: 'slow down',
      code: 'rate_limit_exceeded',
      status: 429,
    });
    const failed = foldResponsesStream([
      event({
        type: 'response.failed',
        response: {
          status: 'failed',
          output: [],
          error: { code: 'server_error', message: 'oops' },
        },
      }),
    ]);
    expect(failed.error).toMatchObject({ code: 'server_error', status: 500 });
  });

  it('joins every string of each output item, deltas of any kind included', () => {
    const { streamedText } = foldResponsesStream([
      event({
        type: 'response.output_text.delta',
        item_id: 'msg_1',
        output_index: 0,
        delta: 'sk-ant-',
      }),
      event({
        type: 'response.refusal.delta',
        item_id: 'msg_1',
        output_index: 0,
        delta: 'api03-x',
      }),
      event({
        type: 'response.reasoning_summary_text.delta',
        item_id: 'rs_1',
        output_index: 1,
        delta: 'why',
      }),
    ]);
    expect(streamedText.get('output item msg_1 delta')).toBe('sk-ant-api03-x');
    expect(streamedText.get('output item rs_1 delta')).toBe('why');
  });
});

describe('isRetriedAnswer for the Responses API', () => {
  const base = { shouldRetry: null, api: 'responses' as const, cut: false };
  it('retries a 200 that is no response, and a stream that broke, but not one that failed for a 400', () => {
    expect(
      isRetriedAnswer({ ...base, status: 200, stream: false, body: { output: [message] } }),
    ).toBe(false);
    expect(isRetriedAnswer({ ...base, status: 200, stream: false, body: '<html>' })).toBe(true);
    expect(
      isRetriedAnswer({ ...base, status: 200, stream: true, events: [completed([message])] }),
    ).toBe(false);
    expect(isRetriedAnswer({ ...base, status: 200, stream: true, events: [] })).toBe(true);
    const error = (code: string) => [event({ type: 'error', code, message: 'x' })];
    expect(
      isRetriedAnswer({ ...base, status: 200, stream: true, events: error('server_error') }),
    ).toBe(true);
    expect(
      isRetriedAnswer({ ...base, status: 200, stream: true, events: error('invalid_prompt') }),
    ).toBe(false);
  });
});
