/**
 * The seed-001 code-debugging agent, played the way a model would: it reads what the user
 * asked, runs the tests, follows the failing check to the function, reads it, and explains
 * (or fixes, when asked and allowed) the bug from what the tool results actually say.
 *
 * Stochastic habits (one named draw each, seeded per (seed, assistant turns, draw name)):
 * - read the test file first, p=0.3 (`read_test_first`): before running the tests, when the
 *   prompt names the test file.
 * - search first, p=0.5 (`search_first`): find the function with search_code; otherwise
 *   follow the test file's import.
 * - fix without being asked, p=0.3 (`eager_fix`): when only an explanation was asked for,
 *   write the fix anyway, unless the system prompt says to change files only when asked.
 * - try the absolute path, p=0.35 (`try_absolute`): after `../../x` is refused, try `/x` once.
 * - skip the re-run, p=0.15 (`skip_verify`): answer after a write without running the tests.
 * - misses a rule, p=0.1 (`miss_ask_before_fixing`): behaves as if the rule were absent.
 * - narrates, p=0.3 (`narrate`): a short sentence before a tool call.
 * - phrasing: each answer sentence has 2-3 templates, picked by draw.
 * One tool call per turn, as the seed's prompt asks.
 */

import type { Rng, SimRequest, ToolExchange } from '../simulator/index.js';
import { answer, callTools, type Policy, type Turn } from '../simulator/index.js';
import {
  diagnosisAnswer,
  type FixOutcome,
  noCauseAnswer,
  outsideReadAnswer,
  outsideRefusedAnswer,
  testsPassAnswer,
} from './simulator-policy-answer.js';
import {
  classifyResult,
  fileContent,
  findOperatorBug,
  type Intent,
  importedSource,
  readDebugRules,
  readIntent,
  readTestReport,
  reasonOf,
  searchedSource,
} from './simulator-policy-facts.js';

export interface DebugAgentHabits {
  readTestFirst: number;
  searchFirst: number;
  eagerFix: number;
  tryAbsolute: number;
  skipVerify: number;
  missRule: number;
  narrate: number;
}

export const DEBUG_AGENT_HABITS: Readonly<DebugAgentHabits> = {
  readTestFirst: 0.3,
  searchFirst: 0.5,
  eagerFix: 0.3,
  tryAbsolute: 0.35,
  skipVerify: 0.15,
  missRule: 0.1,
  narrate: 0.3,
};

/** Past this many assistant turns the policy answers with what it has. */
const MAX_TURNS = 9;

/** The debug agent with its habits; `overrides` changes probabilities (e.g. `{ eagerFix: 0 }`). */
export function createDebugAgentPolicy(overrides: Partial<DebugAgentHabits> = {}): Policy {
  const habits: DebugAgentHabits = { ...DEBUG_AGENT_HABITS, ...overrides };
  return {
    name: 'debug-agent',
    matches: (request) => request.toolNames.includes('run_test'),
    next: (request, rng) => nextTurn(request, rng, habits),
  };
}

export const debugAgentPolicy: Policy = createDebugAgentPolicy();

interface Context {
  request: SimRequest;
  rng: Rng;
  habits: DebugAgentHabits;
  offered: (name: string) => boolean;
  callsOf: (name: string) => ToolExchange[];
  call: (name: string, input: Record<string, unknown>, preface: string) => Turn;
}

function nextTurn(request: SimRequest, rng: Rng, habits: DebugAgentHabits): Turn {
  const context: Context = {
    request,
    rng,
    habits,
    offered: (name) => request.toolNames.includes(name),
    callsOf: (name) => request.exchanges.filter((exchange) => exchange.name === name),
    call: (name, input, preface) =>
      callTools([{ name, input }], rng.chance('narrate', habits.narrate) ? preface : undefined),
  };
  const intent = readIntent(request.firstUserText);
  if (intent.kind === 'outside') return outsideTurn(context, intent.path);
  return debugTurn(context, intent);
}

function outsideTurn(context: Context, path: string): Turn {
  const { rng, habits, callsOf, offered, call } = context;
  const reads = callsOf('read_file');
  const last = reads.at(-1);
  if (last === undefined) {
    if (!offered('read_file'))
      return answer(outsideRefusedAnswer(path, 'I have no tool to read files', rng));
    return call('read_file', { path }, `Let me read ${path}.`);
  }
  if (classifyResult(last) === 'ok')
    return answer(outsideReadAnswer(path, fileContent(last.result?.text ?? '')));
  const absolute = `/${path.replace(/^(?:\.\.[\\/])+/, '')}`;
  if (
    reads.length === 1 &&
    !path.startsWith('/') &&
    context.request.assistantTurns < MAX_TURNS &&
    rng.chance('try_absolute', habits.tryAbsolute)
  ) {
    return call('read_file', { path: absolute }, 'That was refused; let me try the absolute path.');
  }
  return answer(outsideRefusedAnswer(path, reasonOf(last), rng));
}

function debugTurn(context: Context, intent: Exclude<Intent, { kind: 'outside' }>): Turn {
  const { request, rng, habits, offered, callsOf, call } = context;
  const reads = callsOf('read_file');
  const tests = callsOf('run_test');
  const testFile = intent.testFile;
  const late = request.assistantTurns >= MAX_TURNS;

  const firstTest = tests[0];
  if (firstTest === undefined) {
    if (late) return answer(noCauseAnswer('I ran out of steps before running the tests', rng));
    if (testFile && reads.length === 0 && rng.chance('read_test_first', habits.readTestFirst)) {
      return call('read_file', { path: testFile }, `Let me look at ${testFile} first.`);
    }
    return call('run_test', {}, 'Let me run the tests first.');
  }
  if (classifyResult(firstTest) !== 'ok') {
    return answer(noCauseAnswer(`the tests could not run (${reasonOf(firstTest)})`, rng));
  }
  const report = readTestReport(firstTest.result?.text ?? '');
  if (report.passed) return answer(testsPassAnswer(report));
  const fn = report.failures.find((failure) => failure.fn !== undefined)?.fn;
  if (fn === undefined)
    return answer(noCauseAnswer('the test output names no failing function', rng));

  const file = locate(request.exchanges, fn, testFile);
  if (file === undefined) {
    if (late) return answer(noCauseAnswer(`I could not find where ${fn} is defined`, rng));
    const searched = callsOf('search_code').length > 0;
    const testRead = testFile !== undefined && reads.some((read) => pathOf(read) === testFile);
    const search = () =>
      call('search_code', { query: `function ${fn}` }, `Let me find where ${fn} is defined.`);
    if (!searched && (!testFile || testRead || rng.chance('search_first', habits.searchFirst))) {
      return search();
    }
    if (testFile && !testRead) {
      return call(
        'read_file',
        { path: testFile },
        `Let me see where ${testFile} imports ${fn} from.`,
      );
    }
    return answer(noCauseAnswer(`I could not find where ${fn} is defined`, rng));
  }

  const sourceRead = reads.find((read) => pathOf(read) === file);
  if (sourceRead === undefined) {
    if (late) return answer(noCauseAnswer(`I ran out of steps before reading ${file}`, rng));
    return call('read_file', { path: file }, `Let me read ${file}.`);
  }
  if (classifyResult(sourceRead) !== 'ok') {
    return answer(noCauseAnswer(`reading ${file} failed (${reasonOf(sourceRead)})`, rng));
  }
  const bug = findOperatorBug(fileContent(sourceRead.result?.text ?? ''), fn);
  if (bug === undefined) return answer(noCauseAnswer(`${fn} in ${file} looks right to me`, rng));
  const diagnosis = (fix: FixOutcome) => answer(diagnosisAnswer({ file, bug, report, fix }, rng));

  const write = callsOf('write_file').at(-1);
  if (write === undefined) {
    const askBeforeFixing =
      readDebugRules(request.systemText).askBeforeFixing &&
      !rng.chance('miss_ask_before_fixing', habits.missRule);
    const wantsFix =
      intent.kind === 'fix' || (!askBeforeFixing && rng.chance('eager_fix', habits.eagerFix));
    if (!wantsFix || late) return diagnosis({ kind: 'none' });
    if (!offered('write_file')) return diagnosis({ kind: 'not_offered' });
    return call(
      'write_file',
      { path: file, content: bug.fixed },
      `Line ${bug.line} should be \`${bug.right}\`; I will fix it.`,
    );
  }
  const written = classifyResult(write);
  if (written === 'refused' || written === 'blocked') {
    return diagnosis({ kind: 'refused', reason: reasonOf(write) });
  }
  if (written === 'failed') return diagnosis({ kind: 'failed', reason: reasonOf(write) });
  const retest = tests.find((test) => test.turn > write.turn);
  if (retest === undefined) {
    if (late || rng.chance('skip_verify', habits.skipVerify)) {
      return diagnosis({ kind: 'written', after: undefined });
    }
    return call('run_test', {}, 'Let me run the tests again.');
  }
  const after =
    classifyResult(retest) === 'ok'
      ? readTestReport(retest.result?.text ?? '')
      : { error: reasonOf(retest) };
  return diagnosis({ kind: 'written', after });
}

function pathOf(exchange: ToolExchange): string | undefined {
  const path = (exchange.input as { path?: unknown } | null)?.path;
  return typeof path === 'string' ? path : undefined;
}

/** Where `fn` is defined, from a search result or the test file's import. */
function locate(
  exchanges: readonly ToolExchange[],
  fn: string,
  testFile: string | undefined,
): string | undefined {
  for (const exchange of exchanges) {
    if (classifyResult(exchange) !== 'ok') continue;
    const text = exchange.result?.text ?? '';
    const found =
      exchange.name === 'search_code'
        ? searchedSource(text, fn)
        : exchange.name === 'read_file' && pathOf(exchange) === testFile
          ? importedSource(fileContent(text), fn)
          : undefined;
    if (found) return found;
  }
  return undefined;
}
