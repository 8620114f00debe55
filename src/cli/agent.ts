import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRealClock } from '../core/clock.js';
import { ConfigError, errorMessage, HarnessError, ModelApiError } from '../core/errors.js';
import { maskConfiguredKeys } from '../core/secret-values.js';
import {
  createRefundDeskHarness,
  REFUND_DESK_VARIANTS,
  type RefundDeskVariant,
} from '../refund-desk/variants.js';
import { createFileCheckpointStore, unknownRunError } from '../runtime/checkpoint-store.js';
import {
  createAnthropicModel,
  type ModelClient,
  modelTimeoutFrom,
} from '../runtime/model-client.js';
import { resumeAgent } from '../runtime/resume-agent.js';
import { createRetryingModel } from '../runtime/retrying-model.js';
import { type RunResult, runAgent } from '../runtime/run-agent.js';
import { releaseHeldLocksSync } from '../runtime/run-lock.js';
import { createJsonlTrace, type TraceEvent, type TraceSink } from '../runtime/trace.js';
import type { Approver } from '../runtime/types.js';
import { listFlag, positiveInteger } from './args.js';
import { isEntryPoint } from './entry-point.js';
import { createLiveClient, resolveModelId } from './model-config.js';
import { writeResolutions } from './resolve-write-flag.js';
import { type ApprovalTerminal, createTerminalApprover } from './terminal-approver.js';
import { terminalLine, terminalText } from './terminal-text.js';

const USAGE = `usage: npm run agent -- "<question>" [options]
       npm run agent -- --resume <run-id> [--approve | --reject] [--resolve-write KEY=done|retry]

Runs the refund-desk agent once against ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL. Each step
is checkpointed (runs/checkpoints/<run-id>.json): a crashed or paused run continues with
--resume.
  --baseline            the seed's bare agent (no rules, hooks, permissions, timeouts)
  --unattended          refuse anything that needs a human's approval
  --model ID            model id (default: ANTHROPIC_MODEL or claude-opus-5)
  --fallback-model IDS  tried in order when the model is overloaded (529), keeps failing or
                        refuses (comma-separated)
  --max-retries N       retries per model call; waits honour retry-after (default 4)
  --stream              use SSE streaming for model calls
  --model-timeout SECS  deadline of one model call, headers and body (default 600, or
                        HARNESS_MODEL_TIMEOUT); a call past it is retried like a dropped
                        connection
  --verbose             also print each retry of a model call
  --approve-later       do not ask now: pause at the first approval and exit (decide on resume)
  --resume RUN_ID       continue a run from its last checkpoint; a finished run just prints
                        its result (the model is not called again)
  --approve, --reject   the answer for the approval a paused run waits for
  --resolve-write KEY=done|retry
                        decide a write whose outcome is unknown (it timed out or the run was
                        interrupted): done = it took effect, never run it again; retry = it did
                        not, the next identical call may run it (repeatable)
  --checkpoints DIR     where checkpoints live (default runs/checkpoints)`;

const EXIT_AWAITING_APPROVAL = 3;

/** `[y/N/later]` on the terminal; without a TTY nobody can approve, so `ask` is refused. */
function terminalApprover(terminal: AgentTerminal): Approver | undefined {
  return terminal.stdin.isTTY ? createTerminalApprover(terminal) : undefined;
}

/**
 * Mirrors the trace file and prints what a person watching the run wants to see. `first`
 * runs before the first printed line (the run's header: a run that fails before any step
 * prints one line, not a header and an error). Retries show only with `verbose`.
 */
function printingTrace(file: TraceSink, first: () => void, verbose: boolean): TraceSink {
  const line = (event: TraceEvent): string | undefined => {
    switch (event.type) {
      case 'tool_call': {
        const error = event.is_error ? ' [is_error]' : '';
        const replayed = event.replayed ? ' [replayed from the write log]' : '';
        return `step ${event.step} ${event.tool}(${JSON.stringify(event.input)}) -> ${event.decision}${error}${replayed} ${event.ms}ms`;
      }
      case 'model_retry':
        if (!verbose) return undefined;
        return `step ${event.step} model ${event.model}: ${event.error}; retry ${event.attempt} in ${event.wait_ms}ms`;
      case 'model_fallback':
        return `step ${event.step} model ${event.from} ${event.reason}: falling back to ${event.to}`;
      case 'approval_pending':
        return `step ${event.step} ${event.tool}(${JSON.stringify(event.input)}) waits for approval: ${event.reason}`;
      case 'run_lock_taken_over':
        return `run ${event.run_id}: took over its lock from process ${event.pid} (started ${event.started_at}), which is no longer running`;
      case 'write_resolved':
        return `write ${event.key} resolved by a human: ${event.resolution}`;
      case 'run_resume':
        if (event.state === 'finished') {
          return `run ${event.run_id} already finished at step ${event.step}; its recorded result (the model is not called again):`;
        }
        return event.state === 'awaiting_approval'
          ? `resuming run ${event.run_id} at step ${event.step}, which waits for approval`
          : event.step === 0
            ? `resuming run ${event.run_id} from its start (no step had completed)`
            : `resuming run ${event.run_id} after step ${event.step}`;
      default:
        return undefined;
    }
  };
  return {
    write(event) {
      file.write(event);
      const text = line(event);
      if (text === undefined) return;
      first();
      // Built from the event before the file sink redacted its copy: server and model text.
      console.log(terminalLine(text));
    },
  };
}

/** Where the CLI runs: the environment it reads and the directory its relative paths use. */
export interface AgentCliContext {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Where approvals are asked (default: the process's stdin and stdout). */
  terminal?: AgentTerminal;
}

/** The streams a human answers approvals on; without `isTTY` nobody is there to answer. */
export interface AgentTerminal extends ApprovalTerminal {
  stdin: ApprovalTerminal['stdin'] & { isTTY?: boolean };
}

/**
 * `npm run agent` as a function: prints what the CLI prints (console.log / console.error)
 * and returns the exit code. Bad input, a missing or bad key and an unreachable host are
 * one line on stderr and exit 2.
 *
 * @example process.exitCode = await runAgentCli(process.argv.slice(2));
 */
export function runAgentCli(argv: string[], context: AgentCliContext = {}): Promise<number> {
  return main(argv, context).catch((error: unknown) => {
    // One clear line, never a stack trace.
    const prefix =
      error instanceof ConfigError
        ? 'configuration'
        : error instanceof HarnessError
          ? error.code
          : 'error';
    // A server's error message may echo the key or hold control sequences.
    console.error(terminalLine(`agent: ${prefix}: ${errorMessage(error)}`));
    return 2;
  });
}

async function main(argv: string[], context: AgentCliContext): Promise<number> {
  const env = context.env ?? process.env;
  // A server may echo the key in an error: traces and printed lines mask its exact value.
  maskConfiguredKeys(env);
  const cwd = resolve(context.cwd ?? process.cwd());
  // Paths stay relative (as printed) unless a directory was given.
  const at = (path: string) => (context.cwd === undefined ? path : join(cwd, path));
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
  if (values.approve && values.reject)
    throw new ConfigError('give --approve or --reject, not both');
  const resolveWrites = writeResolutions(values['resolve-write']);
  if (resolveWrites && values.resume === undefined) {
    throw new ConfigError(
      '--resolve-write decides a write of an earlier run; use it with --resume <run-id>',
    );
  }
  const checkpoints = createFileCheckpointStore({
    dir: at(values.checkpoints ?? 'runs/checkpoints'),
  });
  const clock = createRealClock();
  const maxRetries = positiveInteger('--max-retries', values['max-retries'], 4, 20);
  const timeoutMs = modelTimeoutFrom(env, values['model-timeout']);
  // A host that never answered or a key it refused is the user's setup, not the run's fault;
  // anything else the model does wrong ends the run (status error, its id, exit 1).
  let setupFailure: ModelApiError | undefined;
  let answered = false;
  const liveModel = (): ModelClient => {
    // Our retry layer retries (and reports it); the SDK's own retries would double it.
    const client = createLiveClient(env).withOptions({ maxRetries: 0 });
    const fallbackModels = listFlag(values['fallback-model']);
    const model = createRetryingModel({
      model: createAnthropicModel({
        client,
        stream: values.stream ?? false,
        ...(timeoutMs !== undefined && { timeoutMs }),
      }),
      clock,
      maxRetries,
      ...(fallbackModels && { fallbackModels }),
    });
    return {
      createMessage: (request, options) =>
        model.createMessage(request, options).then(
          (response) => {
            answered = true;
            return response;
          },
          (error: unknown) => {
            if (isSetupFailure(error) && !answered) setupFailure = error;
            throw error;
          },
        ),
    };
  };
  let header: string | undefined;
  const printHeader = () => {
    if (header !== undefined) console.log(header);
    header = undefined;
  };
  const verbose = values.verbose ?? false;
  const approver = values['approve-later']
    ? async () => 'defer' as const
    : values.unattended
      ? undefined
      : terminalApprover(context.terminal ?? { stdin: process.stdin, stdout: process.stdout });

  let result: RunResult;
  let traceFile: string;
  if (values.resume !== undefined) {
    if (positionals.length > 0) {
      throw new ConfigError('--resume continues the run with its own question; drop the question');
    }
    const runId = values.resume;
    const checkpoint = await checkpoints.load(runId);
    if (!checkpoint) throw await unknownRunError(checkpoints, runId);
    const variant = checkpoint.variant as RefundDeskVariant;
    if (!REFUND_DESK_VARIANTS.includes(variant)) {
      throw new ConfigError(
        `run '${runId}' used harness '${variant}', which this CLI does not know`,
      );
    }
    if ((values.approve || values.reject) && checkpoint.state !== 'awaiting_approval') {
      console.log(`run ${runId} is not waiting for an approval; --approve / --reject is ignored`);
    }
    // A finished run is answered from its checkpoint: no key needed, no model call made.
    const model = checkpoint.state === 'finished' ? notCalled : liveModel();
    traceFile = `runs/${runId}.jsonl`;
    const file = createJsonlTrace(at(traceFile), { append: true });
    result = await resumeAgent({
      runId,
      checkpoints,
      harness: createRefundDeskHarness(variant, { projectDir: cwd }),
      model,
      ...(values.model !== undefined && { modelId: values.model }),
      clock,
      ...(approver && { approver }),
      ...((values.approve || values.reject) && { approvals: values.approve === true }),
      ...(resolveWrites && { resolveWrites }),
      trace: printingTrace(file, printHeader, verbose),
    });
  } else {
    const question = positionals.join(' ').trim();
    if (!question) {
      console.error(`agent: give the question to ask\n${USAGE}`);
      return 2;
    }
    const model = liveModel();
    const harness = createRefundDeskHarness(values.baseline ? 'baseline' : 'upgraded', {
      projectDir: cwd,
    });
    // Sortable by start time; the suffix keeps two runs started in one millisecond apart.
    const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${harness.name}-${randomBytes(3).toString('hex')}`;
    traceFile = `runs/${runId}.jsonl`;
    // Created at the run's first event, never over an existing file.
    const file = createJsonlTrace(at(traceFile), { exclusive: true });
    header = `run ${runId} (checkpoints: ${checkpoints.describe(runId)})`;
    result = await runAgent({
      harness,
      model,
      modelId: resolveModelId(values.model, env),
      prompt: question,
      clock,
      mode: values.unattended ? 'unattended' : 'interactive',
      ...(approver && { approver }),
      trace: printingTrace(file, printHeader, verbose),
      runId,
      checkpoints,
    });
  }

  if (result.status === 'error' && setupFailure) throw setupFailure;
  printHeader();
  if (result.answer) console.log(`\n${terminalText(result.answer)}\n`);
  for (const write of result.unresolvedWrites ?? []) {
    console.log(
      terminalLine(
        `write ${write.key} (step ${write.step}) has an unknown outcome: check the downstream system, then npm run agent -- --resume ${result.runId} --resolve-write ${write.key}=done (it took effect) or =retry`,
      ),
    );
  }
  const detail = result.detail ? ` ${terminalLine(result.detail)}` : '';
  console.log(`[${result.status}]${detail} trace: ${traceFile}`);
  if (result.status === 'awaiting_approval') {
    const resume = `npm run agent -- --resume ${result.runId}`;
    console.log(`decide later: ${resume} --approve   (or --reject)`);
    return EXIT_AWAITING_APPROVAL;
  }
  if (result.status === 'error')
    console.log(`continue it: npm run agent -- --resume ${result.runId}`);
  return result.status === 'done' ? 0 : 1;
}

/** A key the server refused (401, 403) or a host that never answered: the user's setup. */
function isSetupFailure(error: unknown): error is ModelApiError {
  return (
    error instanceof ModelApiError &&
    (error.status === 401 || error.status === 403 || error.kind === 'unreachable')
  );
}

const notCalled: ModelClient = {
  createMessage: () => Promise.reject(new Error('a finished run does not call the model')),
};

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      baseline: { type: 'boolean' },
      unattended: { type: 'boolean' },
      model: { type: 'string' },
      'fallback-model': { type: 'string' },
      'max-retries': { type: 'string' },
      stream: { type: 'boolean' },
      'model-timeout': { type: 'string' },
      verbose: { type: 'boolean' },
      'approve-later': { type: 'boolean' },
      resume: { type: 'string' },
      approve: { type: 'boolean' },
      reject: { type: 'boolean' },
      'resolve-write': { type: 'string', multiple: true },
      checkpoints: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/**
 * The agent CLI as the process's main program (`npm run agent`, `harness-evals agent`): a run's
 * lock must not outlive the process, so it is released on exit and on the usual signals (a
 * SIGKILL leaves it behind; the next process sees its pid is gone and takes it over).
 */
export function runAgentMain(argv: string[]): Promise<number> {
  process.on('exit', releaseHeldLocksSync);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.once(signal, () => {
      releaseHeldLocksSync();
      process.exit(code);
    });
  }
  return runAgentCli(argv);
}

if (isEntryPoint(import.meta.url)) {
  runAgentMain(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
