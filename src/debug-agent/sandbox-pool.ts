import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CreateSandboxOptions, createSandbox, type Sandbox } from './sandbox.js';
import { processScratchDir } from './scratch-dir.js';

export interface SandboxPool {
  /** A sandbox whose content equals the template's; `dispose()` gives it back to the pool. */
  acquire(): Sandbox;
  /** Remove every sandbox the pool holds (those in use are removed when they come back). */
  close(): void;
}

/**
 * Sandboxes for many short runs of the same template. A returned sandbox whose files,
 * folders and bytes still equal the template's is handed to the next run instead of being
 * deleted and copied again (on a busy disk, creating and deleting the files cost more than
 * a whole replayed run); one that changed in any way (a write, a new file, a symlink, a
 * FIFO) is deleted. Every run still starts from the template's exact content.
 *
 * @example
 * const pool = createSandboxPool();
 * const sandbox = pool.acquire(); // ... run ...; sandbox.dispose(); // back to the pool
 */
export function createSandboxPool(options: CreateSandboxOptions = {}): SandboxPool {
  // Idle sandboxes outlive a terminated vitest worker: keep them where the next run sweeps.
  const create = () => createSandbox({ parent: processScratchDir(), ...options });
  const idle: Sandbox[] = [];
  let template: Map<string, Buffer> | undefined;
  let closed = false;
  const exit = () => pool.close();
  const pool: SandboxPool = {
    acquire() {
      closed = false;
      const sandbox = idle.pop() ?? create();
      if (!template) {
        template = snapshot(sandbox.realRoot);
        process.once('exit', exit);
      }
      let released = false;
      return {
        ...sandbox,
        dispose: () => {
          if (released) return;
          released = true;
          const same =
            !closed && template !== undefined && equals(snapshot(sandbox.realRoot), template);
          if (same) idle.push(sandbox);
          else sandbox.dispose();
        },
      };
    },
    close() {
      closed = true;
      for (const sandbox of idle.splice(0)) sandbox.dispose();
      process.removeListener('exit', exit);
    },
  };
  return pool;
}

/**
 * Every entry under `root` by relative path: a file's bytes, a folder as `path/`.
 * Anything else (a symlink, a FIFO, a socket) makes the snapshot unusable: undefined.
 */
function snapshot(root: string): Map<string, Buffer> | undefined {
  const found = new Map<string, Buffer>();
  const walk = (relative: string): boolean => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        found.set(`${path}/`, Buffer.alloc(0));
        if (!walk(path)) return false;
      } else if (entry.isFile()) {
        found.set(path, readFileSync(join(root, path)));
      } else {
        return false;
      }
    }
    return true;
  };
  try {
    return walk('') ? found : undefined;
  } catch {
    return undefined;
  }
}

function equals(current: Map<string, Buffer> | undefined, template: Map<string, Buffer>): boolean {
  if (!current || current.size !== template.size) return false;
  for (const [path, bytes] of template) {
    const other = current.get(path);
    if (!other?.equals(bytes)) return false;
  }
  return true;
}
