import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReadFileTool, createSearchCodeTool, createWriteFileTool } from './file-tools.js';
import { createRunTestTool } from './run-test.js';
import { isInside, resolveSandboxPath } from './sandbox-path.js';
import { CANARY, execute, usePlaygrounds } from './testing/playgrounds.js';

const playground = usePlaygrounds();
const strict = { confinement: 'strict', mustExist: true } as const;

/** Plant outside/secret.txt (the canary) and return the playground. */
function withSecret() {
  const place = playground();
  writeFileSync(join(place.outside, 'secret.txt'), `${CANARY}\n`);
  return place;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'the call must be refused').toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message).not.toContain(CANARY);
  return message;
}

describe('resolveSandboxPath (strict)', () => {
  it('resolves a relative path inside the sandbox', () => {
    const { sandbox } = playground();
    const resolved = resolveSandboxPath(sandbox, 'src/math.ts', strict);
    expect(resolved).toEqual({
      absolute: join(sandbox.realRoot, 'src', 'math.ts'),
      relative: 'src/math.ts',
    });
  });

  it.each([
    ['../../etc/passwd', "contains '..'"],
    ['src/../../outside/secret.txt', "contains '..'"],
    ['..\\..\\etc\\passwd', "contains '..'"],
    ['..', "contains '..'"],
    ['/etc/passwd', 'is an absolute path'],
    ['\\\\server\\share\\x', 'is an absolute path'],
    ['C:\\Windows\\win.ini', 'is an absolute path'],
    ['~/.ssh/id_rsa', 'is an absolute path'],
    ['src/math.ts\0.png', 'NUL byte'],
    ['   ', 'the path is empty'],
  ])('refuses %j with an actionable message', (input, problem) => {
    const { sandbox } = playground();
    expect(() => resolveSandboxPath(sandbox, input, strict)).toThrow(problem);
    expect(() => resolveSandboxPath(sandbox, input, strict)).toThrow(
      /relative to the sandbox root, such as src\/math\.ts|symbolic link/,
    );
  });

  it('refuses a symlink planted in the sandbox that points outside', () => {
    const { sandbox, outside } = withSecret();
    symlinkSync(join(outside, 'secret.txt'), join(sandbox.root, 'notes.txt'));
    expect(() => resolveSandboxPath(sandbox, 'notes.txt', strict)).toThrow(
      "'notes.txt' leads outside the sandbox through a symbolic link",
    );
  });

  it('refuses a path through a symlinked directory that points outside', () => {
    const { sandbox, outside } = withSecret();
    symlinkSync(outside, join(sandbox.root, 'vendor'));
    expect(() => resolveSandboxPath(sandbox, 'vendor/secret.txt', strict)).toThrow(
      'leads outside the sandbox',
    );
    // A new file there would land outside too.
    expect(() =>
      resolveSandboxPath(sandbox, 'vendor/new.txt', { confinement: 'strict', mustExist: false }),
    ).toThrow('leads outside the sandbox');
  });

  it('refuses a dangling symlink, which a write would follow to its target', () => {
    const { sandbox, outside } = playground();
    symlinkSync(join(outside, 'created-by-write.txt'), join(sandbox.root, 'src', 'dangling.ts'));
    expect(() =>
      resolveSandboxPath(sandbox, 'src/dangling.ts', { confinement: 'strict', mustExist: false }),
    ).toThrow('symbolic link to nothing inside the sandbox');
  });

  it('refuses a symlink into a sibling directory whose name starts with the sandbox name', () => {
    const { sandbox } = playground();
    const sibling = `${sandbox.realRoot}-evil`;
    mkdirSync(sibling);
    writeFileSync(join(sibling, 'secret.txt'), `${CANARY}\n`);
    symlinkSync(join(sibling, 'secret.txt'), join(sandbox.root, 'notes.txt'));
    expect(() => resolveSandboxPath(sandbox, 'notes.txt', strict)).toThrow(
      "'notes.txt' leads outside the sandbox through a symbolic link",
    );
  });

  it('accepts a symlink that stays inside the sandbox', () => {
    const { sandbox } = playground();
    symlinkSync(join(sandbox.root, 'src', 'math.ts'), join(sandbox.root, 'math-link.ts'));
    expect(resolveSandboxPath(sandbox, 'math-link.ts', strict).absolute).toBe(
      join(sandbox.realRoot, 'src', 'math.ts'),
    );
  });

  it('names a missing file relative to the sandbox and suggests search_code', () => {
    const { sandbox } = playground();
    expect(() => resolveSandboxPath(sandbox, 'src/nope.ts', strict)).toThrow(
      'no such file or directory: src/nope.ts; use search_code',
    );
  });
});

describe('resolveSandboxPath (lexical, the seed baseline)', () => {
  const lexical = { confinement: 'lexical', mustExist: true } as const;

  it('refuses .. and absolute paths that leave the sandbox', () => {
    const { sandbox } = playground();
    for (const input of ['../../etc/passwd', '/etc/passwd']) {
      expect(() => resolveSandboxPath(sandbox, input, lexical)).toThrow(
        'path is outside the working directory',
      );
    }
  });

  it('refuses a sibling directory whose name starts with the sandbox name', () => {
    const { sandbox } = playground();
    const input = `../${basename(sandbox.realRoot)}-evil/secret.txt`;
    expect(() => resolveSandboxPath(sandbox, input, lexical)).toThrow(
      'path is outside the working directory',
    );
  });

  it('walks straight through a planted symlink: the gap the strict check closes', () => {
    const { sandbox, outside } = withSecret();
    symlinkSync(outside, join(sandbox.root, 'vendor'));
    expect(resolveSandboxPath(sandbox, 'vendor/secret.txt', lexical).relative).toBe(
      'vendor/secret.txt',
    );
  });
});

describe('isInside', () => {
  it('needs the separator after the root: a sibling sharing its prefix is outside', () => {
    const root = `${sep}tmp${sep}sandbox`;
    expect(isInside(root, root)).toBe(true);
    expect(isInside(root, `${root}${sep}src${sep}math.ts`)).toBe(true);
    expect(isInside(root, `${root}-evil${sep}secret.txt`)).toBe(false);
    expect(isInside(root, `${root}-evil`)).toBe(false);
    expect(isInside(`${root}${sep}`, `${root}${sep}x`)).toBe(true);
  });
});

describe('every tool refuses every escape (strict)', () => {
  it('read_file, search_code, write_file and run_test refuse the planted symlink and ..', async () => {
    const { sandbox, outside } = withSecret();
    symlinkSync(join(outside, 'secret.txt'), join(sandbox.root, 'notes.txt'));
    symlinkSync(outside, join(sandbox.root, 'vendor'));
    const options = { sandbox, confinement: 'strict' } as const;
    const read = createReadFileTool(options);
    const search = createSearchCodeTool(options);
    const write = createWriteFileTool(options);
    const runTest = createRunTestTool(options);

    for (const path of ['notes.txt', 'vendor/secret.txt', '../outside/secret.txt', outside]) {
      await refusal(execute(read, { path }));
      await refusal(execute(search, { query: 'CANARY', path }));
      await refusal(execute(write, { path, content: 'overwritten' }));
      await refusal(execute(runTest, { path }));
    }
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(`${CANARY}\n`);
  });

  it('a whole-project search skips planted symlinks instead of following them', async () => {
    const { sandbox, outside } = withSecret();
    symlinkSync(join(outside, 'secret.txt'), join(sandbox.root, 'notes.txt'));
    symlinkSync(outside, join(sandbox.root, 'vendor'));
    const search = createSearchCodeTool({ sandbox, confinement: 'strict' });
    expect(await execute(search, { query: 'CANARY' })).toBe("no line contains 'CANARY' in .");
  });

  it('write_file refuses a NUL byte in the content', async () => {
    const { sandbox } = playground();
    const write = createWriteFileTool({ sandbox, confinement: 'strict' });
    expect(await refusal(execute(write, { path: 'src/x.ts', content: 'a\0b' }))).toContain(
      'NUL byte',
    );
  });

  it('write_file refuses a directory that does not exist, naming it relatively', async () => {
    const { sandbox } = playground();
    mkdirSync(join(sandbox.root, 'lib'));
    const write = createWriteFileTool({ sandbox, confinement: 'strict' });
    const message = await refusal(execute(write, { path: 'nope/x.ts', content: '' }));
    expect(message).toBe(
      'directory nope does not exist; write into an existing directory such as src/',
    );
  });
});
