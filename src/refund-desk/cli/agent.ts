import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { listFlag, parseCliArgs, positiveInteger } from '../../cli/args.js';
import { isEntryPoint } from '../../cli/entry-point.js';
import { createLiveClient, resolveModelId } from '../../cli/model-config.js';
import { terminalLine, terminalText } from '../../cli/terminal-text.js';
import { type Clock, createRealClock } from '../../core/clock.js';
import { ConfigError, errorMessage, HarnessError, ModelApiError } from '../../core/errors.js';
import { releaseHeldLocksSync } from '../../core/run-lock.js';
import { maskConfiguredKeys } from '../../core/secret-values.js';
import {
  createAnthropicModel,
  type ModelClient,
  modelTimeoutFrom,
} from '../../model-api/model-client.js';
import { createRetryingModel } from '../../model-api/retrying-model.js';
import { createFileJournalStore, type JournalStore } from '../../runtime/journal/journal-store.js';
import { JournalError } from '../../runtime/journal/records.js';
import type { WriteState } from '../../runtime/journal/run-view.js';
import { type ApprovalDecisions, resumeAgent } from '../../runtime/resume-agent.js';
import { type RunResult, runAgent } from '../../runtime/run-agent.js';
import { pendingApprovals } from '../../runtime/run-end.js';
import { createJsonlTrace } from '../../runtime/trace.js';
import type { Approver } from '../../runtime/types.js';
import {
  createRefundDeskHarness,
  REFUND_DESK_VARIANTS,
  type RefundDeskVariant,
} from '../variants.js';
import { printingTrace } from './agent-trace.js';
import { approvalFlags, bareDecisions } from './approve-flag.js';
import { writeResolutions } from './resolve-write-flag.js';
import { checkRunFolders } from './run-folders.js';
import { type ApprovalTerminal, createTerminalApprover } from './terminal-approver.js';

const USAGE = `usage: npm run agent -- "<question>" [options]
       npm run agent -- --resume <run-id> [--approve [HASH] | --reject [HASH]] [--resolve-write KEY=done|retry]

Runs the refund-desk agent once against ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL. Every step
is kept in the run's journal (runs/journals/<run-id>.jsonl): a crashed, cancelled or paused
run continues with --resume.
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
  --resume RUN_ID       continue a run from its journal; a finished run just prints its
                        result (the model is not called again)
  --approve [HASH], --reject [HASH]
                        the answer for a call listed as waiting for approval, named by the
                        hash shown beside it (repeatable); alone, for every call listed. A
                        call whose arguments changed since they were listed waits again
  --resolve-write KEY=done|retry
                        decide a write whose outcome is unknown (it timed out or the run was
                        interrupted): done = it took effect, never run it again; retry = it did
                        not, the next identical call may run it (repeatable)
  --journals DIR        where run journals live (default runs/journals)`;

const EXIT_AWAITING_APPROVAL = 3;

/** `[y/N/later]` on the terminal; without a TTY nobody can approve, so `ask` is refused. */
function terminalApprover(terminal: AgentTerminal): Approver | undefined {
  return terminal.stdin.isTTY ? createTerminalApprover(terminal) : undefined;
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
  const approvals = approvalFlags(values.approve, values.reject);
  const resolveWrites = writeResolutions(values['resolve-write']);
  if (resolveWrites && values.resume === undefined) {
    throw new ConfigError(
      '--resolve-write decides a write of an earlier run; use it with --resume <run-id>',
    );
  }
  const session = startSession(values, env, context);
  await checkRunFolders(session.cwd, session.values.journals);
  let ran: { result: RunResult; traceFile: string } | number;
  if (values.resume !== undefined) {
    if (positionals.length > 0) {
      throw new ConfigError('--resume continues the run with its own question; drop the question');
    }
    ran = await resumeRun(session, values.resume, resolveWrites, approvals);
  } else {
    ran = await newRun(session, positionals.join(' ').trim());
  }
  if (typeof ran === 'number') return ran;
  if (ran.result.status === 'error' && session.setupFailure) throw session.setupFailure;
  return report(session, ran.result, ran.traceFile);
}

type Values = ReturnType<typeof parse>['values'];

/** What one CLI invocation sets up once: paths, the journal store, the clock, the model, printing. */
interface Session {
  values: Values;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Paths stay relative (as printed) unless a directory was given. */
  at: (path: string) => string;
  journals: JournalStore;
  clock: Clock;
  approver: Approver | undefined;
  /** Printed before the first line of the run (a run that fails at once prints one line). */
  header: string | undefined;
  printHeader(): void;
  /**
   * A host that never answered or a key it refused is the user's setup, not the run's fault;
   * anything else the model does wrong ends the run (status error, its id, exit 1).
   */
  setupFailure: ModelApiError | undefined;
  liveModel(): ModelClient;
}

function startSession(values: Values, env: NodeJS.ProcessEnv, context: AgentCliContext): Session {
  const cwd = resolve(context.cwd ?? process.cwd());
  const at = (path: string) => (context.cwd === undefined ? path : join(cwd, path));
  const session: Session = {
    values,
    env,
    cwd,
    at,
    journals: createFileJournalStore({ dir: at(values.journals ?? 'runs/journals') }),
    clock: createRealClock(),
    approver: values['approve-later']
      ? async () => 'defer' as const
      : values.unattended
        ? undefined
        : terminalApprover(context.terminal ?? { stdin: process.stdin, stdout: process.stdout }),
    header: undefined,
    printHeader() {
      if (session.header !== undefined) console.log(session.header);
      session.header = undefined;
    },
    setupFailure: undefined,
    liveModel: () => liveModel(session),
  };
  return session;
}

function liveModel(session: Session): ModelClient {
  const { values, env } = session;
  const maxRetries = positiveInteger('--max-retries', values['max-retries'], 4, 20);
  const timeoutMs = modelTimeoutFrom(env, values['model-timeout']);
  // Our retry layer retries (and reports it); the SDK's own retries would double it.
  const client = createLiveClient(env).withOptions({ maxRetries: 0 });
  const fallbackModels = listFlag(values['fallback-model']);
  const model = createRetryingModel({
    model: createAnthropicModel({
      client,
      stream: values.stream ?? false,
      ...(timeoutMs !== undefined && { timeoutMs }),
    }),
    clock: session.clock,
    maxRetries,
    ...(fallbackModels && { fallbackModels }),
  });
  let answered = false;
  return {
    createMessage: (request, options) =>
      model.createMessage(request, options).then(
        (response) => {
          answered = true;
          return response;
        },
        (error: unknown) => {
          if (isSetupFailure(error) && !answered) session.setupFailure = error;
          throw error;
        },
      ),
  };
}

async function resumeRun(
  session: Session,
  runId: string,
  resolveWrites: ReturnType<typeof writeResolutions>,
  approvals: ApprovalDecisions | undefined,
) {
  const { values, journals, at } = session;
  const { view } = await openJournal(journals, runId, at);
  const variant = view.started.variant as RefundDeskVariant;
  if (!REFUND_DESK_VARIANTS.includes(variant)) {
    throw new ConfigError(`run '${runId}' used harness '${variant}', which this CLI does not know`);
  }
  if (approvals !== undefined && pendingApprovals(view).length === 0) {
    console.log(`run ${runId} shows no call waiting for approval; --approve / --reject is ignored`);
  }
  // A finished run is answered from its journal: no key needed, no model call made.
  const model = view.finished ? notCalled : session.liveModel();
  const traceFile = `runs/${runId}.jsonl`;
  const file = createJsonlTrace(at(traceFile), { append: true });
  const result = await resumeAgent({
    runId,
    journals,
    harness: createRefundDeskHarness(variant, { projectDir: session.cwd }),
    model,
    ...(values.model !== undefined && { modelId: values.model }),
    clock: session.clock,
    ...(session.approver && { approver: session.approver }),
    ...(approvals !== undefined && { approvals }),
    ...(resolveWrites && { resolveWrites }),
    trace: printingTrace(file, session.printHeader, values.verbose ?? false),
  });
  return { result, traceFile };
}

async function newRun(session: Session, question: string) {
  const { values, journals, at } = session;
  if (!question) {
    console.error(`agent: give the question to ask\n${USAGE}`);
    return 2;
  }
  const model = session.liveModel();
  const harness = createRefundDeskHarness(values.baseline ? 'baseline' : 'upgraded', {
    projectDir: session.cwd,
  });
  // Sortable by start time; the suffix keeps two runs started in one millisecond apart.
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${harness.name}-${randomBytes(3).toString('hex')}`;
  const traceFile = `runs/${runId}.jsonl`;
  // Created at the run's first event, never over an existing file.
  const file = createJsonlTrace(at(traceFile), { exclusive: true });
  session.header = `run ${runId} (journal: ${journals.describe(runId)})`;
  const result = await runAgent({
    harness,
    model,
    modelId: resolveModelId(values.model, session.env),
    prompt: question,
    clock: session.clock,
    mode: values.unattended ? 'unattended' : 'interactive',
    ...(session.approver && { approver: session.approver }),
    trace: printingTrace(file, session.printHeader, values.verbose ?? false),
    runId,
    journals,
  });
  return { result, traceFile };
}

/** The run's answer, its writes a human must hear of, its status line, and the exit code. */
function report(session: Session, result: RunResult, traceFile: string): number {
  session.printHeader();
  if (result.answer) console.log(`\n${terminalText(result.answer)}\n`);
  for (const write of result.writes ?? [])
    console.log(terminalLine(writeLine(write, result.runId)));
  const detail = result.detail ? ` ${terminalLine(result.detail)}` : '';
  console.log(`[${result.status}]${detail} trace: ${traceFile}`);
  const pending = result.pendingApprovals ?? [];
  if (pending.length > 0) {
    const resume = `npm run agent -- --resume ${result.runId}`;
    const hash = pending[0]!.hash;
    console.log(
      `decide later: ${resume} --approve ${hash}   (or --reject ${hash}; --approve alone answers every call listed above)`,
    );
  }
  if (result.status === 'awaiting_approval') return EXIT_AWAITING_APPROVAL;
  if (result.status === 'error')
    console.log(`continue it: npm run agent -- --resume ${result.runId}`);
  return result.status === 'done' ? 0 : 1;
}

/** What a human must know of a write whose outcome the model was told is unknown. */
function writeLine(write: WriteState, runId: string): string {
  const which = `write ${write.key} (step ${write.step})`;
  if (write.made === 'yes' || write.made === 'no') {
    const outcome = write.made === 'yes' ? 'it took effect' : 'it did not take effect';
    return `${which} timed out or was cut off; its tool reported since that ${outcome} (the model was told its outcome was unknown)`;
  }
  return `${which} has an unknown outcome: check the downstream system, then npm run agent -- --resume ${runId} --resolve-write ${write.key}=done (it took effect) or =retry`;
}

/** The run's journal, or one line: an unknown run, or a checkpoint of a build before journals. */
async function openJournal(journals: JournalStore, runId: string, at: (path: string) => string) {
  try {
    return await journals.open(runId);
  } catch (error) {
    const legacy = `runs/checkpoints/${runId}.json`;
    if (
      !(error instanceof JournalError && error.code === 'journal_missing') ||
      !existsSync(at(legacy))
    ) {
      throw error;
    }
    throw new JournalError(
      'journal_format',
      `${legacy} is a checkpoint of an earlier build of harness-evals (0.1.0, before run journals); this build cannot resume it: start a new run`,
    );
  }
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
  return parseCliArgs({
    args: bareDecisions(argv),
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
      approve: { type: 'string', multiple: true },
      reject: { type: 'string', multiple: true },
      'resolve-write': { type: 'string', multiple: true },
      journals: { type: 'string' },
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
