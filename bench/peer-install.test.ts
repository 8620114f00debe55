import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installArgs, installPeer, missingPackages } from './peer-install.js';

const dir = mkdtempSync(join(tmpdir(), 'peer-install-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fakeInstall = (name: string, version: string) => {
  mkdirSync(join(dir, 'node_modules', name), { recursive: true });
  writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
};

describe('peer install', () => {
  it('installs exact versions into the throwaway directory without saving them', () => {
    expect(installArgs('/tmp/peers/evalite', 'evalite')).toEqual([
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--prefix',
      '/tmp/peers/evalite',
      'evalite@0.19.0',
      'vitest@4.1.12',
    ]);
  });

  it('lists the pinned packages that are missing or at another version', () => {
    expect(missingPackages(dir, 'evalite')).toEqual(['evalite@0.19.0', 'vitest@4.1.12']);
    fakeInstall('evalite', '0.19.0');
    fakeInstall('vitest', '4.0.0');
    expect(missingPackages(dir, 'evalite')).toEqual(['vitest@4.1.12']);
    fakeInstall('vitest', '4.1.12');
    expect(missingPackages(dir, 'evalite')).toEqual([]);
  });
});

describe('installPeer', () => {
  it('names the peer, the command, what npm said and the fix when the install fails', async () => {
    const npm = join(dir, 'failing-npm');
    writeFileSync(npm, '#!/bin/sh\necho "npm error code E404" >&2\nexit 1\n', { mode: 0o755 });
    const lines: string[] = [];
    const failure = installPeer({
      dir: join(dir, 'vitest-evals'),
      peer: 'vitest-evals',
      log: (line) => lines.push(line),
      npm,
    });
    await expect(failure).rejects.toThrow(/installing vitest-evals failed \(npm exited with 1\)/);
    await expect(failure).rejects.toThrow(
      `command: npm install --no-save --no-audit --no-fund --prefix ${join(dir, 'vitest-evals')} vitest-evals@0.16.1 vitest@4.1.12`,
    );
    await expect(failure).rejects.toThrow(
      /npm error code E404[\s\S]*fix: check that the npm registry answers/,
    );
    expect(lines).toEqual([
      `bench:peers: installing vitest-evals@0.16.1 vitest@4.1.12 into ${join(dir, 'vitest-evals')}`,
    ]);
  });
});
