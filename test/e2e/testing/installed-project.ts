import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { offlineLockFor } from './offline-lock.js';
import { type CommandResult, runCommand } from './run-command.js';

/** This repository: what `npm pack` packs. */
export const REPO = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/** A fresh project outside the repository with the packed package installed, and how long each step took. */
export interface InstalledProject {
  dir: string;
  /** What `npm pack` put in the tarball. */
  paths: string[];
  tarballBytes: number;
  pack: CommandResult;
  install: CommandResult;
}

/**
 * `npm pack` this repository into `work`, then a project `work/<name>` that depends on the
 * tarball alone, installed offline from the npm cache `npm ci` filled (its lock is built from
 * this repository's: offline-lock.ts). Throws with the command's output when a step fails.
 */
export async function installedProject(work: string, name: string): Promise<InstalledProject> {
  const dir = join(work, name);
  const pack = await runCommand('npm', ['pack', '--pack-destination', work, '--json'], REPO);
  ok(pack, 'npm pack');
  const [info] = JSON.parse(pack.output.slice(pack.output.indexOf('['))) as Array<{
    filename: string;
    size: number;
    files: Array<{ path: string }>;
  }>;
  await mkdir(dir);
  const tarball = info!.filename.replace(/^@.*\//, '');
  await copyFile(join(work, tarball), join(dir, tarball));
  const { lock, dependency } = await offlineLockFor({
    repoLock: join(REPO, 'package-lock.json'),
    repoPackageJson: join(REPO, 'package.json'),
    tarball: join(dir, tarball),
    spec: `file:${tarball}`,
    projectName: name,
  });
  const manifest = {
    name,
    version: '1.0.0',
    private: true,
    scripts: { test: 'echo "Error: no test specified" && exit 1' },
    dependencies: dependency,
  };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
  const install = await runCommand('npm', ['install', '--offline'], dir);
  ok(install, 'npm install --offline');
  return {
    dir,
    paths: info!.files.map((file) => file.path),
    tarballBytes: info!.size,
    pack,
    install,
  };
}

function ok(result: CommandResult, what: string): void {
  if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code}):\n${result.output}`);
}
