// @ts-expect-error: plain JavaScript (it runs before any build exists), no declarations
import { distBuilder } from '../dist-build.mjs';

/**
 * vitest globalSetup of the unit and e2e tests: tests that run the evals (in process or
 * through the CLI) use dist/, as `npm run eval` does, so build it first when src/ changed.
 */
export default function buildDistFirst(): void {
  distBuilder().ensureFresh();
}
