import { describeZodIssues } from '../../core/parse.js';
import { redactText } from '../../core/redact.js';
import { isJsonObject } from '../../model-api/answer-fields.js';
import { chatCompletionProblem } from '../../model-api/chat-completion-check.js';
import { VERDICT_TOOL_NAME, type Verdict, VerdictSchema } from '../../model-api/judge-wire.js';
import { messageProblem } from '../../model-api/message-check.js';
import { responseProblem } from '../../model-api/responses-check.js';
import type { ModelApi } from '../../model-api/retryable-answer.js';

/** A judge's answer read: its verdict, or why there is none (a judge error, one line). */
export type VerdictReading = { verdict: Verdict } | { error: string };

const quote = (text: string, max = 120) => {
  const flat = redactText(text).replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max)}…` : flat);
};

/** The verdict in the forced tool call's input, checked against VerdictSchema. */
function verdictOf(input: unknown): VerdictReading {
  const parsed = VerdictSchema.safeParse(input);
  if (parsed.success) return { verdict: parsed.data };
  return { error: `invalid verdict: ${describeZodIssues(parsed.error.issues)}` };
}

function errorStatus(status: number, body: unknown): VerdictReading {
  const error = isJsonObject(body) && isJsonObject(body.error) ? body.error : undefined;
  const message = typeof error?.message === 'string' ? `: ${quote(error.message)}` : '';
  return { error: `the judge API answered ${status}${message}` };
}

function fromMessage(body: unknown): VerdictReading {
  const problem = messageProblem(body);
  if (problem !== undefined) return { error: `malformed answer: ${problem}` };
  const message = body as { stop_reason: string; content: Array<Record<string, unknown>> };
  const calls = message.content.filter((block) => block.type === 'tool_use');
  const text = message.content
    .flatMap((block) =>
      block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
    )
    .join(' ');
  if (message.stop_reason === 'refusal') {
    return {
      error: `the judge refused to grade (stop_reason refusal)${text ? `: ${quote(text)}` : ''}`,
    };
  }
  return fromCalls(
    calls.map((call) => ({ name: String(call.name), input: call.input })),
    text,
  );
}

function fromCompletion(body: unknown): VerdictReading {
  const problem = chatCompletionProblem(body);
  if (problem !== undefined) return { error: `malformed answer: ${problem}` };
  const choice = (body as { choices: Array<Record<string, unknown>> }).choices[0]!;
  const message = choice.message as Record<string, unknown>;
  const text = typeof message.content === 'string' ? message.content : '';
  if (typeof message.refusal === 'string' && message.refusal !== '') {
    return { error: `the judge refused to grade: ${quote(message.refusal)}` };
  }
  if (choice.finish_reason === 'content_filter') {
    return { error: 'the judge refused to grade (finish_reason content_filter)' };
  }
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  return fromArgumentCalls(
    calls.map((call: { function?: { name?: unknown; arguments?: unknown } }) => ({
      name: call.function?.name,
      arguments: call.function?.arguments,
    })),
    text,
  );
}

/** A Responses API answer: its function calls, its refusal, a response cut by a content filter. */
function fromResponse(body: unknown): VerdictReading {
  const problem = responseProblem(body);
  if (problem !== undefined) return { error: `malformed answer: ${problem}` };
  const response = body as {
    status?: string;
    incomplete_details?: { reason?: unknown } | null;
    output: Array<Record<string, unknown>>;
  };
  const parts = response.output.flatMap((item) =>
    item.type === 'message' ? (item.content as Array<Record<string, unknown>>) : [],
  );
  const refusal = parts.find((part) => part.type === 'refusal');
  if (refusal) return { error: `the judge refused to grade: ${quote(String(refusal.refusal))}` };
  if (response.incomplete_details?.reason === 'content_filter') {
    return { error: 'the judge refused to grade (incomplete_details content_filter)' };
  }
  const text = parts
    .flatMap((part) => (part.type === 'output_text' ? [String(part.text)] : []))
    .join(' ');
  const calls = response.output.filter((item) => item.type === 'function_call');
  return fromArgumentCalls(calls, text);
}

/** Calls whose arguments are JSON text (OpenAI's both APIs), read as the verdict tool's input. */
function fromArgumentCalls(
  calls: ReadonlyArray<{ name?: unknown; arguments?: unknown }>,
  text: string,
): VerdictReading {
  const read = calls.map((call) => {
    try {
      return { name: String(call.name), input: JSON.parse(String(call.arguments)) as unknown };
    } catch {
      return { name: String(call.name), input: undefined, unparsed: String(call.arguments) };
    }
  });
  const unparsed = read.find((call) => 'unparsed' in call);
  if (unparsed && read.length === 1 && unparsed.name === VERDICT_TOOL_NAME) {
    return { error: 'invalid verdict: the tool call arguments are not JSON' };
  }
  return fromCalls(read, text);
}

function fromCalls(calls: ReadonlyArray<{ name: string; input: unknown }>, text: string) {
  if (calls.length === 0) {
    return {
      error: `no tool call: the judge answered ${text ? `with text only, ${quote(text)}` : 'nothing'}`,
    };
  }
  if (calls.length > 1) {
    return { error: `${calls.length} tool calls: the judge must call ${VERDICT_TOOL_NAME} once` };
  }
  const [call] = calls;
  if (call!.name !== VERDICT_TOOL_NAME) {
    return {
      error: `wrong tool: the judge called ${quote(call!.name, 60)}, not ${VERDICT_TOOL_NAME}`,
    };
  }
  return verdictOf(call!.input);
}

/**
 * The verdict of one judge answer. Only the forced tool call counts: text beside it, however
 * it reads ("VERDICT: pass"), is ignored. An error status, a malformed answer, a refusal, no
 * tool call, another tool, two calls or an input VerdictSchema refuses is a judge error.
 */
export function readVerdict(api: ModelApi, status: number, body: unknown): VerdictReading {
  if (status < 200 || status >= 300) return errorStatus(status, body);
  if (api === 'responses') return fromResponse(body);
  return api === 'chat_completions' ? fromCompletion(body) : fromMessage(body);
}
