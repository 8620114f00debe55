import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ConfigError, errorMessage } from '../core/errors.js';
import { evalRunsDir } from './settings.js';

/**
 * Checked once, before any trial runs: the traces folder exists (it is created) and takes a
 * new file. Otherwise every trial would error on its trace, one by one, and the report could
 * say nothing about the fixtures; a ConfigError names the folder, the cause and the fix.
 */
export async function checkTracesFolder(projectDir: string): Promise<void> {
  const dir = evalRunsDir(projectDir);
  const shown = relative(projectDir, dir);
  const probe = join(dir, `.write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '', { flag: 'wx' });
  } catch (error) {
    throw new ConfigError(
      `cannot write the trial traces under ${shown}: ${errorMessage(error)}; make ${shown} a writable folder (move away what is in its way), then run again`,
      { cause: error },
    );
  }
  await rm(probe, { force: true });
}
