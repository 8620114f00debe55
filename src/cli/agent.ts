import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { createRealClock } from '../core/clock.js';
import { ConfigError, errorMessage, HarnessError } from '../core/errors.js';
import { createRefundDeskHarness } from '../refund-desk/variants.js';
import { createAnthropicModel } from '../runtime/model-client.js';
import { runAgent } from '../runtime/run-agent.js';
import { createJsonlTrace, type TraceSink } from '../runtime/trace.js';
import type { Approver } from '../runtime/types.js';
import { createLiveClient, resolveModelId } from './model-config.js';

const USAGE = `usage: npm run agent -- "<question>" [--baseline] [--unattended] [--model ID] [--stream]

Runs the refund-desk agent once against ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL.
  --baseline     the seed's bare agent (no rules, hooks, permissions, timeouts)
  --unattended   refuse anything that needs a human's approval
  --model ID     model id (default: ANTHROPIC_MODEL or claude-opus-5)
  --stream       use SSE streaming for model calls`;

/** `[y/N]` on the terminal; without a TTY nobody can approve, so `ask` is refused. */
function terminalApprover(): Approver | undefined {
  if (!process.stdin.isTTY) return undefined;
  return async (call, reason) => {
    const prompt = createInterface({ input: process.stdin, output: process.stdout });
    try {
      const answer = await prompt.question(
        `approve ${call.name}(${JSON.stringify(call.input)})? ${reason} [y/N] `,
      );
      return /^y(es)?$/i.test(answer.trim());
    } finally {
      prompt.close();
    }
  };
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`agent: ${errorMessage(error)}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const question = positionals.join(' ').trim();
  if (!question) {
    console.error(`agent: give the question to ask\n${USAGE}`);
    return 2;
  }
  const client = createLiveClient();
  const modelId = resolveModelId(values.model);
  const harness = createRefundDeskHarness(values.baseline ? 'baseline' : 'upgraded', {
    projectDir: process.cwd(),
  });
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${harness.name}`;
  const file = createJsonlTrace(`runs/${runId}.jsonl`);
  const printer: TraceSink = {
    write(event) {
      file.write(event);
      if (event.type === 'tool_call') {
        const error = event.is_error ? ' [is_error]' : '';
        console.log(
          `step ${event.step} ${event.tool}(${JSON.stringify(event.input)}) -> ${event.decision}${error} ${event.ms}ms`,
        );
      }
    },
  };
  const approver = values.unattended ? undefined : terminalApprover();
  const result = await runAgent({
    harness,
    model: createAnthropicModel({ client, stream: values.stream ?? false }),
    modelId,
    prompt: question,
    clock: createRealClock(),
    mode: values.unattended ? 'unattended' : 'interactive',
    ...(approver && { approver }),
    trace: printer,
    runId,
  });
  if (result.answer) console.log(`\n${result.answer}\n`);
  const detail = result.detail ? ` ${result.detail}` : '';
  console.log(`[${result.status}]${detail} trace: ${file.file}`);
  return result.status === 'done' ? 0 : 1;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      baseline: { type: 'boolean' },
      unattended: { type: 'boolean' },
      model: { type: 'string' },
      stream: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // One clear line, never a stack trace.
    const prefix =
      error instanceof ConfigError
        ? 'configuration'
        : error instanceof HarnessError
          ? error.code
          : 'error';
    console.error(`agent: ${prefix}: ${errorMessage(error)}`);
    process.exitCode = 2;
  },
);
