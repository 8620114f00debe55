import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = join(root, 'dist');
let scratch: string;
let register: string;

// A loader hook that writes every module URL a thread loads to its own file, and each import
// (importer, then imported) to another (one pair per thread: `--import` runs again in each
// vitest worker thread). It logs; it changes nothing it loads.
const REGISTER = `import { register } from 'node:module';
import { threadId } from 'node:worker_threads';
register('./hooks.mjs', import.meta.url, { data: { threadId, dir: process.env.LOAD_LOG_DIR } });
`;
const HOOKS = `import { appendFileSync } from 'node:fs';
let file;
let edges;
export function initialize({ threadId, dir }) {
  file = dir + '/thread-' + threadId + '.txt';
  edges = dir + '/edges-' + threadId + '.txt';
}
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (context.parentURL) appendFileSync(edges, context.parentURL + ' ' + resolved.url + '\\n');
  return resolved;
}
export async function load(url, context, next) {
  appendFileSync(file, url + '\\n');
  return next(url, context);
}
`;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'harness-lazy-loads-'));
  register = join(scratch, 'register.mjs');
  writeFileSync(register, REGISTER);
  writeFileSync(join(scratch, 'hooks.mjs'), HOOKS);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Run node with the hook; the URLs each thread loaded (main thread first). */
function loadsOf(
  args: string[],
  cwd = root,
): { status: number | null; output: string; threads: string[][]; edges: string[] } {
  const logs = mkdtempSync(join(scratch, 'logs-'));
  const run = spawnSync(process.execPath, args, {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, LOAD_LOG_DIR: logs, NODE_OPTIONS: `--import ${register}` },
  });
  const lines = (prefix: string) =>
    readdirSync(logs)
      .filter((name) => name.startsWith(prefix))
      .sort()
      .map((name) => readFileSync(join(logs, name), 'utf8').trim().split('\n'));
  return {
    status: run.status,
    output: `${run.stdout}${run.stderr}`,
    threads: lines('thread-'),
    edges: lines('edges-').flat(),
  };
}

/** Whether `to` is reached by the imports from `from`, leaving out importers `skip` matches. */
function reaches(edges: readonly string[], from: string, to: string, skip: RegExp): boolean {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const [importer = '', imported = ''] = edge.split(' ');
    if (!skip.test(importer)) next.set(importer, [...(next.get(importer) ?? []), imported]);
  }
  const seen = new Set<string>();
  const queue = [...next.keys()].filter((url) => url.endsWith(from));
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (url.endsWith(to)) return true;
    if (seen.has(url)) continue;
    seen.add(url);
    queue.push(...(next.get(url) ?? []));
  }
  return false;
}

const importing = (...files: string[]) => [
  '--input-type=module',
  '-e',
  files.map((file) => `await import(${JSON.stringify(`file://${join(dist, file)}`)});`).join(''),
];

/** What a run without judges, recording or --verify, and before it writes a report, never needs. */
const LAZY = {
  'the SDK client': '/@anthropic-ai/sdk/client.mjs',
  'the judge stack': '/dist/eval/grade/judge-trial.js',
  "record --verify's simulator": '/dist/simulator/respond.js',
  'the HTML renderer': '/dist/eval/report/html.js',
  'the markdown renderer': '/dist/eval/report/markdown.js',
};
const loaded = (urls: string[]) =>
  Object.entries(LAZY)
    .filter(([, path]) => urls.some((url) => url.endsWith(path)))
    .map(([name]) => name);

describe('lazy loading (issue 35: start-up at the floor)', () => {
  it('importing the package, as an eval file does, loads no SDK client, judge stack, verify simulator or renderer', () => {
    // The package alone: this repository's demo agents (reference-agents.js) write their model
    // scripts as simulator policies, on the public simulator entry, which is the simulator.
    const run = loadsOf(importing('index.js'));
    expect(run.output).toBe('');
    const [main = []] = run.threads;
    // The hook saw the package load (else the check below would pass on nothing).
    expect(main.some((url) => url.endsWith('/dist/eval/define-task.js'))).toBe(true);
    expect(loaded(main)).toEqual([]);
  });

  it('the eval command loads no renderer, statistics or zod before its run starts', () => {
    const run = loadsOf(importing('cli/eval.js'));
    expect(run.output).toBe('');
    const [main = []] = run.threads;
    expect(main.some((url) => url.endsWith('/dist/eval/run/run-evals.js'))).toBe(true);
    expect(loaded(main)).toEqual([]);
    // The worker starts once this thread has loaded the command: the report side (the
    // statistics, the schemas and zod's ~95 modules) loads while the trials run.
    const early = main.filter((url) => /\/node_modules\/zod\/|\/dist\/eval\/stats\//.test(url));
    expect(early).toEqual([]);
  });

  it('a replay of a task without judges loads the SDK in the worker for its trials, but no judge stack or renderer', () => {
    const project = join(scratch, 'project');
    mkdirSync(project);
    for (const name of [
      'evals',
      'fixtures',
      'AGENTS.md',
      'vitest.evals.config.ts',
      'node_modules',
      'dist',
    ]) {
      symlinkSync(join(root, name), join(project, name));
    }
    writeFileSync(join(project, 'package.json'), '{ "type": "module", "private": true }\n');
    const run = loadsOf(
      [join(dist, 'cli/main.js'), 'eval', '--task', 'T2', '--trials', '1'],
      project,
    );
    expect(run.status, run.output).toBe(0);
    const [main = [], ...workers] = run.threads;
    const worker = workers.find((urls) =>
      urls.some((url) => url.endsWith('/dist/eval/define-task.js')),
    );
    expect(worker, 'no worker thread loaded the package').toBeDefined();
    // T2's agent declares the refund desk's policy as its model script, and that policy is
    // written on the public simulator entry (harness-evals/simulator), so the simulator loads
    // with the agent file; the package's own code never reaches it in a replay.
    expect(loaded(worker ?? [])).toEqual(['the SDK client', "record --verify's simulator"]);
    expect(
      reaches(
        run.edges,
        '/dist/eval/define-task.js',
        LAZY["record --verify's simulator"],
        /\/dist\/refund-desk\//,
      ),
    ).toBe(false);
    // …and it does, through the demo's policy (else the check above would pass on nothing).
    expect(
      reaches(
        run.edges,
        '/dist/refund-desk/simulator-policy.js',
        LAZY["record --verify's simulator"],
        /^$/,
      ),
    ).toBe(true);
    // The report side loads in the main thread, once the trials start (run-evals.ts).
    expect(loaded(main)).toContain('the HTML renderer');
  });
});
