import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const made: string[] = [];

afterAll(() => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
});

/** A throwaway project holding the given files under src/, cruised with the repository's rules: its violations. */
async function cruise(files: Record<string, string>): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'import-rules-'));
  made.push(folder);
  copyFileSync(join(ROOT, 'tsconfig.json'), join(folder, 'tsconfig.json'));
  copyFileSync(join(ROOT, 'package.json'), join(folder, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(folder, 'node_modules'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  const bin = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const result = await promisify(execFile)(
    process.execPath,
    [bin, 'src', '--config', CONFIG, '--output-type', 'json'],
    { cwd: folder, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
  const report = JSON.parse(result.stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  return report.summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`);
}

describe('the import rules of src/eval (npm run lint)', () => {
  it('refuse an import up a floor, into the top-level files or into a folder that is no floor', async () => {
    const violations = await cruise({
      'src/eval/report/thing.ts': 'export const thing = 1;\n',
      'src/eval/spec/low.ts':
        "import { thing } from '../report/thing.js';\nexport const low = thing;\n",
      'src/eval/define-task.ts': 'export const top = 1;\n',
      'src/eval/run/run.ts': "import { top } from '../define-task.js';\nexport const run = top;\n",
      'src/eval/extra/other.ts': 'export const other = 1;\n',
      'src/eval/trial/uses-other.ts':
        "import { other } from '../extra/other.js';\nexport const uses = other;\n",
      // Down a floor is allowed: report reads spec.
      'src/eval/report/reads-spec.ts':
        "import { low } from '../spec/low.js';\nexport const reads = low;\n",
    });
    expect(violations.sort()).toEqual([
      'eval-has-no-other-folders: src/eval/trial/uses-other.ts → src/eval/extra/other.ts',
      'eval-run-imports-down-only: src/eval/run/run.ts → src/eval/define-task.ts',
      'eval-spec-imports-down-only: src/eval/spec/low.ts → src/eval/report/thing.ts',
    ]);
  });

  it('refuse an import cycle between two files of one folder', async () => {
    const violations = await cruise({
      'src/eval/grade/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'src/eval/grade/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
    });
    expect(violations).toEqual(['no-circular: src/eval/grade/a.ts → src/eval/grade/b.ts']);
  });

  it('refuse a static import of the OpenTelemetry export from outside it; import() is allowed', async () => {
    const violations = await cruise({
      'src/eval/report/otel/export.ts': 'export const exportTrace = 1;\n',
      'src/eval/report/otel/inside.ts':
        "import { exportTrace } from './export.js';\nexport const inside = exportTrace;\n",
      'src/cli/static.ts':
        "import { exportTrace } from '../eval/report/otel/export.js';\nexport const s = exportTrace;\n",
      'src/cli/dynamic.ts': "export const load = () => import('../eval/report/otel/export.js');\n",
    });
    expect(violations).toEqual([
      'otel-export-loads-only-when-asked: src/cli/static.ts → src/eval/report/otel/export.ts',
    ]);
  });
});
