import assert from 'node:assert/strict';
import { add, multiply, subtract } from '../src/math.js';

// A tiny runner on node:assert: its output is the same on every Node version, so a
// recorded run_test result replays byte for byte.
const checks: Array<[name: string, check: () => void]> = [
  ['add(2, 3) is 5', () => assert.equal(add(2, 3), 5)],
  ['add(-1, 1) is 0', () => assert.equal(add(-1, 1), 0)],
  ['subtract(5, 3) is 2', () => assert.equal(subtract(5, 3), 2)],
  ['multiply(4, 3) is 12', () => assert.equal(multiply(4, 3), 12)],
];

let failed = 0;
for (const [index, [name, check]] of checks.entries()) {
  try {
    check();
    console.log(`ok ${index + 1} - ${name}`);
  } catch (error) {
    failed += 1;
    console.log(`not ok ${index + 1} - ${name}`);
    if (error instanceof assert.AssertionError) {
      console.log(`  expected ${String(error.expected)}, got ${String(error.actual)}`);
    } else {
      console.log(`  ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
console.log(`# ${checks.length} tests, ${checks.length - failed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
