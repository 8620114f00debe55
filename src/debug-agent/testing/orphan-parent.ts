// A parent that starts a test child which never ends (a busy loop: it answers no signal
// handler and no timer), prints the child's pid, then waits to be killed.
// usage: node --import tsx orphan-parent.ts <dir>
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runChild } from '../child-process.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: orphan-parent.ts <dir>');
const pidFile = join(dir, 'child.pid');
void runChild({
  command: process.execPath,
  args: [
    '-e',
    `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); for (;;) {}`,
  ],
  cwd: dir,
  env: {},
  timeoutMs: 120_000,
});
const waitForChild = setInterval(() => {
  if (!existsSync(pidFile) || readFileSync(pidFile, 'utf8') === '') return;
  clearInterval(waitForChild);
  process.stdout.write(`CHILD ${readFileSync(pidFile, 'utf8')}\n`);
}, 10);
