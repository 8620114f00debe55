import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBaseline } from './baseline-build.js';
import { resolveBaselineRef } from './baseline-ref.js';
import { removeScratchDir } from './scratch.js';
import { BENCH_LAYOUT_FILES, createGitRepo } from './testing/git-repo.js';

const nodeModules = fileURLToPath(new URL('../node_modules', import.meta.url));
const repo = createGitRepo();
afterAll(() => repo.remove());

const MAKE_DIST = `import { mkdirSync, writeFileSync } from 'node:fs';
for (const file of ['cli/main.js', 'index.js', 'reference-agents.js', 'eval/trial-runner.js']) {
  mkdirSync('dist/' + file.split('/').slice(0, -1).join('/'), { recursive: true });
  writeFileSync('dist/' + file, '');
}
`;
const packageJson = (build: string, dependencies: Record<string, string> = {}) =>
  JSON.stringify({ type: 'module', scripts: { build }, dependencies });

/** Build `files` committed on top of the bench layout; the scratch dirs left for its short sha. */
async function build(files: Record<string, string>) {
  const sha = repo.commit({ ...BENCH_LAYOUT_FILES, ...files });
  const ref = resolveBaselineRef(sha, repo.dir);
  const left = () =>
    readdirSync(tmpdir()).filter((name) => name.startsWith(`harness-baseline-${ref.short}-`));
  const built = buildBaseline({ ref, repoDir: repo.dir, nodeModules, log: () => {} });
  return { ref, built, left };
}

describe('buildBaseline', () => {
  it("extracts REF's tree, links node_modules, builds dist/ with REF's own build script, and names pinned versions the link lacks", async () => {
    const { ref, built } = await build({
      'package.json': packageJson('node build.mjs', {
        zod: '0.0.1',
        'no-such-package-here': '1.0.0',
      }),
      'build.mjs': MAKE_DIST,
    });
    const { projectDir, notes } = await built;
    try {
      expect(existsSync(join(projectDir, 'evals/t2.eval.ts'))).toBe(true);
      expect(existsSync(join(projectDir, 'dist/eval/trial-runner.js'))).toBe(true);
      expect(existsSync(join(projectDir, '.tree.tar'))).toBe(false);
      expect(lstatSync(join(projectDir, 'node_modules')).isSymbolicLink()).toBe(true);
      expect(readlinkSync(join(projectDir, 'node_modules'))).toBe(nodeModules);
      expect(notes).toEqual([
        expect.stringMatching(
          new RegExp(`^${ref.short} pins zod@0.0.1; the linked node_modules has 4\\.`),
        ),
        `${ref.short} depends on no-such-package-here@1.0.0, which the linked node_modules lacks`,
      ]);
    } finally {
      removeScratchDir(projectDir);
    }
  });

  it('fails with the build output when the build script fails, and leaves no directory', async () => {
    const { ref, built, left } = await build({
      'package.json': packageJson('node build.mjs'),
      'build.mjs': "console.error('tsc: 3 errors'); process.exit(3);",
    });
    await expect(built).rejects.toThrow(
      `npm run build of ${ref.commit} (${ref.short}) exited with 3`,
    );
    await expect(built).rejects.toThrow('tsc: 3 errors');
    expect(left()).toEqual([]);
  });

  it('fails, naming the missing files, when the build made no dist/ the bench can run', async () => {
    const { ref, built, left } = await build({
      'package.json': packageJson('node build.mjs'),
      'build.mjs': "console.log('built nothing');",
    });
    await expect(built).rejects.toThrow(
      `npm run build of ${ref.commit} (${ref.short}) made no dist/cli/main.js, dist/index.js, dist/reference-agents.js, dist/eval/trial/trial-runner.js or dist/eval/trial-runner.js`,
    );
    expect(left()).toEqual([]);
  });
});
