import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

interface PackageJson {
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
}

/**
 * What `npm pack` puts in the package, as it stands: dist/ is fresh (the tests' global setup
 * builds it), so the build is not run again.
 */
async function packedFiles(): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    'npm',
    ['pack', '--dry-run', '--json', '--ignore-scripts'],
    { cwd: repo, maxBuffer: 16 * 1024 * 1024 },
  );
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{
    files: Array<{ path: string }>;
  }>;
  return info!.files.map((file) => file.path);
}

// `from './x.js'`, `import './x.js'`, `import('./x.js')`: relative specifiers only.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;

/** Every dist module (.js and .d.ts) that the package's entry points load, by JavaScript or by types. */
function reachable(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file) || !existsSync(join(repo, file))) continue;
    seen.add(file);
    if (file.endsWith('.js')) queue.push(file.replace(/\.js$/, '.d.ts'));
    for (const match of readFileSync(join(repo, file), 'utf8').matchAll(SPECIFIER)) {
      const target = normalize(join(dirname(file), match[2]!));
      queue.push(target, target.replace(/\.js$/, '.d.ts'));
    }
  }
  return seen;
}

describe('the npm package', () => {
  let files: string[];
  beforeAll(async () => {
    files = await packedFiles();
  }, 120_000);

  it('holds the entry points (so the checks below look at a real package)', () => {
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/cli/main.js');
  });

  it('holds the license its package.json names', () => {
    expect(files).toContain('LICENSE');
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { license: string };
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(repo, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
  });

  // Issue 35: the package is the product. The example agents, their simulated models, the
  // agent CLI that runs the refund desk, the bench and the e2e tests are this repository's own.
  it('ships no example agent, demo policy, agent CLI, bench or e2e code', () => {
    const repositoryOnly =
      /(^|\/)(refund-desk|debug-agent|reference-agents|simulator-policy|bench|e2e)([./-]|$)|^dist\/cli\/(agent|terminal-approver|typeahead)[.-]/;
    expect(files.filter((path) => repositoryOnly.test(path))).toEqual([]);
  });

  it('holds only the build, the templates and the package files', () => {
    const product = /^(dist\/|templates\/init\/)|^(package\.json|README\.md|LICENSE)$/;
    expect(files.filter((path) => !product.test(path))).toEqual([]);
  });

  it('holds the CLI, its templates and every entry point package.json names', () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as PackageJson;
    const entries = [
      ...Object.values(pkg.bin),
      ...Object.values(pkg.exports).flatMap((entry) =>
        typeof entry === 'string' ? [entry] : [entry.default, entry.types],
      ),
    ].map((path) => normalize(path));
    expect(entries).toContain('dist/cli/main.js');
    expect(entries.filter((path) => !files.includes(path))).toEqual([]);
    expect(files).toContain('dist/simulator/server.js');
    expect(files).toContain('dist/simulator/model-script.js');
    expect(files.filter((path) => path.startsWith('templates/init/')).length).toBeGreaterThan(5);
  });

  it('ships no test double: nothing under a testing/ folder, no *.test.* file', () => {
    expect(files.filter((path) => /(^|\/)testing\/|\.test\./.test(path))).toEqual([]);
  });

  // A test double named like any module (cli-testing.ts, test-records.ts) shipped unseen.
  it('ships only modules its entry points load: what only tests import belongs in testing/', () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as PackageJson;
    const entries = [
      ...Object.values(pkg.bin),
      ...Object.values(pkg.exports).flatMap((entry) =>
        typeof entry === 'string' ? [entry] : [entry.default, entry.types],
      ),
    ].map((path) => normalize(path));
    const loaded = reachable(entries);
    const modules = files.filter((path) => path.startsWith('dist/') && /\.(js|d\.ts)$/.test(path));
    expect(modules.length).toBeGreaterThan(100);
    expect(modules.filter((path) => !loaded.has(path))).toEqual([]);
  });
});
