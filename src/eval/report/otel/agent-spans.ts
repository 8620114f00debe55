import type { TrialRecord } from '../../spec/trial-record.js';
import type {
  Transcript,
  TranscriptToolCall,
  TranscriptTurn,
} from '../../transcript/transcript.js';
import { conversationContent, turnContent } from './content-attributes.js';
import { OURS, type PlanAttributes, type SpanPlan, span } from './span-plan.js';

export interface AgentSpanOptions {
  startMs: number;
  /** `--otel-content`: prompts, answers and tool arguments go out too. */
  content: boolean;
  /** On every span of the trial: replayed, and from which cassette. */
  common: PlanAttributes;
}

/** Provider and model, as the GenAI conventions name them on each chat span. */
function modelAttributes(record: TrialRecord): PlanAttributes {
  return {
    ...(record.provider && {
      'gen_ai.provider.name': record.provider,
      // The name before semantic conventions 1.37, which some backends still read.
      'gen_ai.system': record.provider,
    }),
    ...(record.model && { 'gen_ai.request.model': record.model }),
    ...(record.host && { 'server.address': record.host.replace(/:\d+$/, '') }),
  };
}

function chatSpan(
  record: TrialRecord,
  turn: TranscriptTurn,
  startMs: number,
  options: AgentSpanOptions,
): SpanPlan {
  const status = /^HTTP (\d{3})/.exec(turn.error ?? '')?.[1];
  return span({
    name: record.model ? `chat ${record.model}` : 'chat',
    kind: 'client',
    startMs,
    endMs: startMs + turn.latencyMs,
    attributes: {
      'gen_ai.operation.name': 'chat',
      ...modelAttributes(record),
      'gen_ai.usage.input_tokens': turn.tokens.input,
      'gen_ai.usage.output_tokens': turn.tokens.output,
      'gen_ai.usage.cache_read.input_tokens': turn.tokens.cacheRead,
      'gen_ai.usage.cache_creation.input_tokens': turn.tokens.cacheWrite,
      ...(turn.stopReason !== null && { 'gen_ai.response.finish_reasons': [turn.stopReason] }),
      [`${OURS}.step`]: turn.step,
      ...(turn.error && { 'error.type': status ?? '_OTHER' }),
      ...(options.content && turnContent(turn)),
      ...options.common,
    },
    ...(turn.error && { error: turn.error }),
  });
}

function toolSpan(call: TranscriptToolCall, startMs: number, options: AgentSpanOptions): SpanPlan {
  return span({
    name: `execute_tool ${call.name}`,
    startMs,
    endMs: startMs + (call.ms ?? 0),
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': call.name,
      'gen_ai.tool.type': 'function',
      ...(call.id !== undefined && { 'gen_ai.tool.call.id': call.id }),
      ...(call.decision !== undefined && { [`${OURS}.tool.decision`]: call.decision }),
      ...(call.isError && { 'error.type': 'tool_error' }),
      ...(options.content && {
        'gen_ai.tool.call.arguments': call.input,
        ...(call.result !== undefined && { 'gen_ai.tool.call.result': call.result }),
      }),
      ...options.common,
    },
    ...(call.isError && { error: 'the tool returned an error' }),
  });
}

/**
 * The agent's run of one trial: an `invoke_agent` span over its model calls (`chat`) and tool
 * calls (`execute_tool`), one after the other, each as long as recorded (a model call's
 * latency from the cassette, a tool call's from the trace; 0 when untraced).
 */
export function agentSpan(
  record: TrialRecord,
  transcript: Transcript | undefined,
  options: AgentSpanOptions,
): SpanPlan {
  const children: SpanPlan[] = [];
  let at = options.startMs;
  const turns: TranscriptTurn[] =
    transcript?.turns ??
    // No transcript (an unreadable cassette): the recorded latencies still give the calls.
    record.modelLatenciesMs.map((latencyMs, index) => ({
      step: index + 1,
      stopReason: null,
      blocks: [],
      tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      latencyMs,
    }));
  for (const turn of turns) {
    const chat = chatSpan(record, turn, at, options);
    children.push(chat);
    at = chat.endMs;
    for (const block of turn.blocks) {
      if (block.kind !== 'tool') continue;
      const tool = toolSpan(block.call, at, options);
      children.push(tool);
      at = tool.endMs;
    }
  }
  const agentName = `${record.suite}/${record.variant}`;
  return span({
    name: `invoke_agent ${agentName}`,
    startMs: options.startMs,
    endMs: at,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': agentName,
      ...modelAttributes(record),
      ...(record.stats && {
        'gen_ai.usage.input_tokens': record.stats.inputTokens,
        'gen_ai.usage.output_tokens': record.stats.outputTokens,
      }),
      ...(record.status && { [`${OURS}.status`]: record.status }),
      ...(options.content && transcript && conversationContent(transcript)),
      ...options.common,
    },
    children,
  });
}
