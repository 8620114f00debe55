import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { declarationSite, registerTask } from './task-registry.js';

const declaration = (id: string, suite: string, file: string, collection: object) => ({
  id,
  suite,
  location: `${file}:3`,
  collection,
  file,
});

describe('registerTask', () => {
  it('refuses a second declaration of an id in the same file, naming both', () => {
    const collection = {};
    registerTask(declaration('R1', 'desk', 'evals/r.eval.ts', collection));
    expect(() => registerTask(declaration('R1', 'desk', 'evals/r.eval.ts', collection))).toThrow(
      ConfigError,
    );
  });

  it('refuses the same id in another suite and file, naming both and the fix', () => {
    registerTask(declaration('R2', 'alpha', 'evals/a.eval.ts', {}));
    expect(() => registerTask(declaration('r2', 'beta', 'evals/b.eval.ts', {}))).toThrow(
      /^task id 'r2' is declared twice: in suite alpha \(evals\/a\.eval\.ts:3\) as 'R2' and suite beta \(evals\/b\.eval\.ts:3\)\..*rename one of them/,
    );
  });

  it('takes the same file collected again (a re-run in the same worker) as a replacement', () => {
    registerTask(declaration('R3', 'desk', 'evals/r3.eval.ts', {}));
    const again = {};
    expect(() => registerTask(declaration('R3', 'desk', 'evals/r3.eval.ts', again))).not.toThrow();
    // The second collection is now the registered one: declaring R3 twice in it is refused.
    expect(() => registerTask(declaration('R3', 'desk', 'evals/r3.eval.ts', again))).toThrow(
      ConfigError,
    );
  });
});

describe('declarationSite', () => {
  it("names the calling file and line relative to the project, from the call's stack", () => {
    const file = new URL(import.meta.url).pathname;
    const project = new URL('../../..', import.meta.url).pathname;
    expect(declarationSite(file, project)).toMatch(
      /^src\/eval\/task\/task-registry\.test\.ts:\d+$/,
    );
    expect(declarationSite(undefined, project)).toBeUndefined();
  });
});
