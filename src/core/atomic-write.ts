import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Write through a temp file in the same folder and rename: readers see the old file or the new one, never half. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const directory = dirname(file);
  await mkdir(directory, { recursive: true });
  const temp = join(directory, `.${basename(file)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    await writeFile(temp, data, { flag: 'wx' });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
