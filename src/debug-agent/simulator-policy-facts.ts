import type { ToolExchange } from '../simulator/index.js';

/** What the user asked for, read from the first user message. */
export type Intent =
  | { kind: 'outside'; path: string }
  | { kind: 'fix'; testFile: string | undefined }
  | { kind: 'explain'; testFile: string | undefined };

const OUTSIDE_PATH =
  /(?:^|[\s`'"(])((?:\.\.[\\/])+[^\s`'"),]+|\/(?:etc|root|home|usr|var|proc)\/[^\s`'"),]*)/;
const TEST_FILE = /\b(test\/[\w./-]+\.(?:spec|test)\.ts)\b/;

export function readIntent(prompt: string): Intent {
  const outside = OUTSIDE_PATH.exec(prompt)?.[1]?.replace(/[.?!:;]+$/, '');
  if (outside) return { kind: 'outside', path: outside };
  const testFile = TEST_FILE.exec(prompt)?.[1];
  if (/\bfix\b|\brepair\b|make (?:it|them) pass/i.test(prompt)) return { kind: 'fix', testFile };
  return { kind: 'explain', testFile };
}

/** Project rules the system prompt carries (the sandbox's AGENTS.md), by keyword. */
export interface DebugRules {
  /** Only change files when the user asks for a fix. */
  askBeforeFixing: boolean;
}

export function readDebugRules(systemText: string): DebugRules {
  return { askBeforeFixing: /only change files when the user asks/i.test(systemText) };
}

/** How one tool result reads to a model. */
export type DebugResultKind = 'ok' | 'refused' | 'blocked' | 'failed';

export function classifyResult(exchange: ToolExchange): DebugResultKind {
  if (!exchange.result) return 'failed';
  if (!exchange.result.isError) return 'ok';
  const text = exchange.result.text;
  if (/already called/i.test(text)) return 'blocked';
  if (
    /approv|not executed|denied|declined|refused|not allowed|outside|leave the sandbox|absolute path|NUL byte/i.test(
      text,
    )
  ) {
    return 'refused';
  }
  return 'failed';
}

/** The reason in a refusal or failure, without the tool-name prefix the pipeline adds. */
export function reasonOf(exchange: ToolExchange): string {
  const text = exchange.result?.text ?? 'no result';
  return (text.replace(/^\w+ failed: /, '').split('\n')[0] ?? text).trim();
}

export interface TestFailure {
  name: string;
  /** The function the failing check calls, e.g. `add`. */
  fn: string | undefined;
  detail: string | undefined;
}

export interface TestReport {
  passed: boolean;
  failures: TestFailure[];
  /** `# 4 tests, 2 passed, 2 failed` when the runner printed it. */
  counts: string | undefined;
}

/** A run_test result as the debug agent's tool writes it (see src/debug-agent/run-test.ts). */
export function readTestReport(text: string): TestReport {
  const lines = text.split('\n');
  const failures: TestFailure[] = [];
  for (const [index, line] of lines.entries()) {
    const match = /^not ok \d+ - (.+)$/.exec(line);
    if (!match) continue;
    const name = match[1] ?? '';
    const next = lines[index + 1];
    failures.push({
      name,
      fn: /^(\w+)\(/.exec(name)?.[1],
      detail: next?.startsWith('  ') ? next.trim() : undefined,
    });
  }
  const counts = lines.find((line) => /^# \d+ tests/.test(line))?.replace(/^# /, '');
  return { passed: /^Tests passed/.test(text), failures, counts };
}

/** The file text of a read_file result, without the tool's `path (N bytes)` header line. */
export function fileContent(text: string): string {
  const [first = '', ...rest] = text.split('\n');
  return /^[\w./-]+ \((?:first \d+ of )?\d+ bytes/.test(first) ? rest.join('\n') : text;
}

/** `src/math.ts` from `import { add } from '../src/math.js'` in a test file. */
export function importedSource(testText: string, fn: string): string | undefined {
  for (const match of testText.matchAll(/import \{([^}]*)\} from '\.\.\/([\w/.-]+?)\.js'/g)) {
    const names = (match[1] ?? '').split(',').map((name) => name.trim());
    if (names.includes(fn)) return `${match[2]}.ts`;
  }
  return undefined;
}

/** `src/math.ts` from a search_code line `src/math.ts:3: export function add(...)`. */
export function searchedSource(searchText: string, fn: string): string | undefined {
  const line = searchText
    .split('\n')
    .find((candidate) => new RegExp(`^\\S+:\\d+: .*function ${fn}\\b`).test(candidate));
  return line?.split(':')[0];
}

const VERBS: Record<string, string> = {
  '+': 'adds',
  '-': 'subtracts',
  '*': 'multiplies',
  '/': 'divides',
};
/** The operator a function's name promises. */
const PROMISED: Record<string, string> = { add: '+', subtract: '-', multiply: '*', divide: '/' };

export interface Bug {
  fn: string;
  /** 1-based line of the wrong return statement. */
  line: number;
  wrong: string;
  right: string;
  /** What the function does instead, e.g. `subtracts`. */
  does: string;
  /** What its name promises, e.g. `adds`. */
  should: string;
  /** The file with the return statement corrected. */
  fixed: string;
}

/**
 * A function whose `return a OP b;` uses another operator than its name promises (`add`
 * returning `a - b`), read the way a model reads code; undefined when it looks right.
 */
export function findOperatorBug(source: string, fn: string): Bug | undefined {
  const promised = PROMISED[fn];
  if (!promised) return undefined;
  const lines = source.split('\n');
  const start = lines.findIndex((line) => new RegExp(`function ${fn}\\s*\\(`).test(line));
  if (start < 0) return undefined;
  for (let index = start; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const match = /return (\w+) ([-+*/]) (\w+);/.exec(line);
    if (match) {
      const [statement, left, operator = '', right] = match;
      if (operator === promised) return undefined;
      const corrected = `return ${left} ${promised} ${right};`;
      const fixed = [...lines];
      fixed[index] = line.replace(statement, corrected);
      return {
        fn,
        line: index + 1,
        wrong: statement,
        right: corrected,
        does: VERBS[operator] ?? 'does something else',
        should: VERBS[promised] ?? promised,
        fixed: fixed.join('\n'),
      };
    }
    if (index > start && /^}/.test(line)) return undefined;
  }
  return undefined;
}
