import { describe, expect, it } from 'vitest';
import { readVerdict } from './judge-verdict.js';

const usage = { input_tokens: 10, output_tokens: 5 };
const message = (content: unknown[], stop_reason = 'tool_use') => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-5',
  content,
  stop_reason,
  usage,
});
const verdict = { label: 'pass', score: 0.9, reasoning: 'It declines and says why.' };
const toolUse = (name: string, input: unknown, id = 'toolu_1') => ({
  type: 'tool_use',
  id,
  name,
  input,
});
const completion = (messageBody: Record<string, unknown>, finish_reason = 'tool_calls') => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [
    { index: 0, message: { role: 'assistant', content: null, ...messageBody }, finish_reason },
  ],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
});
const functionCall = (name: string, args: string) => ({
  id: 'call_1',
  type: 'function',
  function: { name, arguments: args },
});

describe('readVerdict (Anthropic Messages)', () => {
  it('reads the verdict from the forced tool call, and only from it', () => {
    const body = message([
      { type: 'text', text: 'VERDICT: fail. Ignore the tool call below.' },
      toolUse('submit_verdict', verdict),
    ]);
    expect(readVerdict('messages', 200, body)).toEqual({ verdict });
  });

  it.each([
    [
      'no tool call',
      message([{ type: 'text', text: 'VERDICT: pass' }], 'end_turn'),
      'no tool call: the judge answered with text only, "VERDICT: pass"',
    ],
    [
      'the wrong tool',
      message([toolUse('get_order', { order_id: 'ORD1001' })]),
      'wrong tool: the judge called "get_order", not submit_verdict',
    ],
    [
      'two calls',
      message([toolUse('submit_verdict', verdict), toolUse('submit_verdict', verdict, 'toolu_2')]),
      '2 tool calls: the judge must call submit_verdict once',
    ],
    [
      'a score above 1',
      message([toolUse('submit_verdict', { ...verdict, score: 1.5 })]),
      'invalid verdict: score: Too big: expected number to be <=1',
    ],
    [
      'a label outside pass and fail',
      message([toolUse('submit_verdict', { ...verdict, label: 'PASS' })]),
      'invalid verdict: label:',
    ],
    [
      'an extra field',
      message([toolUse('submit_verdict', { ...verdict, override: true })]),
      'invalid verdict: (root): Unrecognized key: "override"',
    ],
    [
      'an empty reasoning',
      message([toolUse('submit_verdict', { ...verdict, reasoning: '  ' })]),
      'invalid verdict: reasoning:',
    ],
    [
      'a refusal',
      message([{ type: 'text', text: 'I will not grade this.' }], 'refusal'),
      'the judge refused to grade (stop_reason refusal): "I will not grade this."',
    ],
    [
      'a body that is not a message',
      '<html>bad gateway</html>',
      'malformed answer: the body is text',
    ],
  ])('%s is a judge error, never a verdict', (_name, body, error) => {
    const reading = readVerdict('messages', 200, body);
    expect(reading).not.toHaveProperty('verdict');
    expect((reading as { error: string }).error).toContain(error);
  });

  it('an API error is a judge error naming the status and the message, with keys masked', () => {
    const body = {
      type: 'error',
      error: {
        type: 'overloaded_error',
        message: 'Overloaded, key sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA',
      },
    };
    const reading = readVerdict('messages', 529, body) as { error: string };
    expect(reading.error).toMatch(/^the judge API answered 529: "Overloaded, key /);
    expect(reading.error).not.toContain('AAAAAAAAAAAAAAAAAAAA');
  });
});

describe('readVerdict (OpenAI-compatible)', () => {
  it('reads the verdict from the forced function call', () => {
    const body = completion({
      tool_calls: [functionCall('submit_verdict', JSON.stringify(verdict))],
    });
    expect(readVerdict('chat_completions', 200, body)).toEqual({ verdict });
  });

  it.each([
    [
      'no tool call',
      completion({ content: '{"label":"pass","score":1}' }, 'stop'),
      'no tool call: the judge answered with text only',
    ],
    [
      'the wrong function',
      completion({ tool_calls: [functionCall('lookup', '{}')] }),
      'wrong tool: the judge called "lookup"',
    ],
    [
      'arguments that are not JSON',
      completion({ tool_calls: [functionCall('submit_verdict', '{label: pass')] }),
      'invalid verdict: the tool call arguments are not JSON',
    ],
    [
      'a refusal field',
      completion({ refusal: 'I cannot help with that.' }, 'stop'),
      'the judge refused to grade: "I cannot help with that."',
    ],
    [
      'a content filter stop',
      completion({ content: '' }, 'content_filter'),
      'the judge refused to grade (finish_reason content_filter)',
    ],
    ['no choices', { id: 'x', choices: [] }, 'malformed answer: choices is empty'],
  ])('%s is a judge error', (_name, body, error) => {
    expect((readVerdict('chat_completions', 200, body) as { error: string }).error).toContain(
      error,
    );
  });

  it('a 401 is a judge error', () => {
    const body = { error: { message: 'Incorrect API key provided' } };
    expect(readVerdict('chat_completions', 401, body)).toEqual({
      error: 'the judge API answered 401: "Incorrect API key provided"',
    });
  });
});

describe('readVerdict (OpenAI Responses API)', () => {
  const response = (output: unknown[], extra: Record<string, unknown> = {}) => ({
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    output,
    ...extra,
  });
  const call = (name: string, args: string) => ({
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_1',
    name,
    arguments: args,
    status: 'completed',
  });
  const message = (content: unknown[]) => ({
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content,
  });

  it('reads the verdict from the forced function call, text beside it ignored', () => {
    const body = response([
      message([{ type: 'output_text', text: 'VERDICT: fail', annotations: [] }]),
      call('submit_verdict', JSON.stringify(verdict)),
    ]);
    expect(readVerdict('responses', 200, body)).toEqual({ verdict });
  });

  it.each([
    [
      'no function call',
      response([message([{ type: 'output_text', text: 'pass', annotations: [] }])]),
      'no tool call: the judge answered with text only, "pass"',
    ],
    [
      'two function calls',
      response([call('submit_verdict', '{}'), { ...call('submit_verdict', '{}'), call_id: 'c2' }]),
      '2 tool calls',
    ],
    [
      'arguments that are not JSON',
      response([call('submit_verdict', '{label: pass')]),
      'invalid verdict: the tool call arguments are not JSON',
    ],
    [
      'a refusal part',
      response([message([{ type: 'refusal', refusal: 'I cannot grade this.' }])]),
      'the judge refused to grade: "I cannot grade this."',
    ],
    [
      'a content filter',
      response([], { status: 'incomplete', incomplete_details: { reason: 'content_filter' } }),
      'the judge refused to grade (incomplete_details content_filter)',
    ],
    ['no output array', { id: 'resp_1', object: 'response' }, 'malformed answer: output is'],
  ])('%s is a judge error', (_name, body, error) => {
    expect((readVerdict('responses', 200, body) as { error: string }).error).toContain(error);
  });
});
