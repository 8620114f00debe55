import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, for tests that check what a long-lived object (a run's signal)
 * keeps alive through WeakRefs, not heap sizes. `--expose-gc` set at run time reaches only new
 * contexts: the function comes from one, and no global of the worker changes.
 */
export async function collectGarbage(): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // A WeakRef's target stays alive until the job that made or read it ends.
  for (let round = 0; round < 2; round += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
}
