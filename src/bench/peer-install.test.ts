import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installArgs, missingPackages } from './peer-install.js';

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
