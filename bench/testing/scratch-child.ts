// A bench script for scratch.test.ts: it makes two scratch directories, writes their paths to
// the file named by its second argument, then ends the way its first argument says.
import { writeFileSync } from 'node:fs';
import { BenchUsageError, runBenchScript } from '../bench-args.js';
import { measureCommand } from '../measure-process.js';
import { scratchDir } from '../scratch.js';

const [how, report = ''] = process.argv.slice(2);

await runBenchScript('scratch-child', async () => {
  const dirs = [scratchDir('bench-scratch-test-'), scratchDir('bench-scratch-test-')];
  writeFileSync(report, JSON.stringify(dirs));
  if (how === 'throw') throw new Error('a measured run failed');
  if (how === 'usage') throw new BenchUsageError('--rounds 0: give a whole number');
  if (how === 'exit') process.exit(3);
  if (how === 'wait') {
    // A measured run that never ends, in a detached group of its own: the test signals us.
    const pidFile = `${report}.pid`;
    await measureCommand(
      'node',
      [
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
      ],
      { cwd: dirs[0]! },
    );
  }
  return 0;
});
