import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';

// A PassThrough hands its data over on resume()'s nextTick; a real terminal does not, so the
// drain is checked on a real pseudo-terminal too (python3's pty module drives it).
const hasPty = spawnSync('python3', ['-c', 'import pty'], { stdio: 'ignore' }).status === 0;

/** The approver, built in dist/ (the tests' global setup builds it), asks once on a SIGUSR1. */
const APPROVER_SCRIPT = (approver: string) => `
import { createTerminalApprover } from ${JSON.stringify(approver)};
const approve = createTerminalApprover({ stdin: process.stdin, stdout: process.stdout });
// A signal listener alone does not keep node running: the timer does, until the signal.
const working = setInterval(() => {}, 60_000);
await new Promise((go) => {
  process.once('SIGUSR1', go);
  process.stdout.write('WORKING\\n');
});
clearInterval(working);
const asked = approve({ id: 'toolu_1', name: 'resubmit_refund', input: { order_id: 'ORD1' } }, 'a write');
// A parallel tool call's synchronous work (or a GC pause) right after the question is asked.
const start = Date.now();
while (Date.now() - start < Number(process.env.BLOCK_MS)) {}
const answer = await asked;
process.stdout.write('ANSWER=' + JSON.stringify(answer) + '\\n');
process.exit(0);
`;

/**
 * Runs node on the script in a pseudo-terminal: types "y" + Enter while the agent "works",
 * waits for the terminal's echo (the line is in the terminal's input then), lets the question
 * be asked, answers "n" + Enter, and prints what the terminal showed. Waits on output, never on
 * time, so a loaded machine only makes it slower.
 */
const DRIVER = `
import os, pty, select, signal, sys, time
node, script = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.execv(node, [node, script])
shown = b''
def until(token, start=0):
    global shown
    end = time.time() + 20
    while shown.find(token, start) < 0:
        left = end - time.time()
        if left <= 0:
            sys.exit('timed out waiting for %r; the terminal showed %r' % (token, shown))
        if select.select([fd], [], [], left)[0]:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b''
            if not chunk:
                sys.exit('the terminal closed waiting for %r; it showed %r' % (token, shown))
            shown += chunk
until(b'WORKING\\r\\n')
start = len(shown)
os.write(fd, b'y\\r')
until(b'y\\r\\n', start)
os.kill(pid, signal.SIGUSR1)
until(b'[y/N/later] ', start)
os.write(fd, b'n\\r')
until(b'ANSWER=', start)
until(b'\\n', shown.find(b'ANSWER='))
os.waitpid(pid, 0)
sys.stdout.write(shown.decode('utf8', 'replace'))
`;

describe('createTerminalApprover on a real pseudo-terminal', () => {
  // With the loop blocked past the 50 ms quiet time, the quiet timer fired before the terminal
  // was first polled: nothing was dropped and the typed-ahead "y" approved.
  it.skipIf(!hasPty).each([
    ['', 0],
    [', the event loop then blocked for 100 ms', 100],
  ])(
    'drops a line typed while the agent worked%s (skipped without python3 and its pty module)',
    (_, blockMs) => {
      const dir = mkdtempSync(join(tmpdir(), 'approver-pty-'));
      try {
        const approver = new URL(
          '../../../dist/refund-desk/cli/terminal-approver.js',
          import.meta.url,
        ).href;
        const script = join(dir, 'ask.mjs');
        writeFileSync(script, APPROVER_SCRIPT(approver));
        const driven = spawnSync('python3', ['-c', DRIVER, process.execPath, script], {
          encoding: 'utf8',
          timeout: 25_000,
          killSignal: 'SIGKILL',
          env: { ...process.env, BLOCK_MS: String(blockMs) },
        });
        expect(driven.stderr).toBe('');
        expect(driven.status).toBe(0);
        const shown = driven.stdout.replaceAll('\r\n', '\n');
        expect(shown).toContain('(ignored input typed before this question)\n');
        expect(shown).toMatch(/\nANSWER=false\n$/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

/** The approver asks at once; a SIGUSR2 cancels the run. The script then ends by itself. */
const WITHDRAW_SCRIPT = (approver: string) => `
import { createTerminalApprover } from ${JSON.stringify(approver)};
const approve = createTerminalApprover({ stdin: process.stdin, stdout: process.stdout });
const run = new AbortController();
process.once('SIGUSR2', () => run.abort(new Error('the run was cancelled')));
const call = { id: 'toolu_1', name: 'resubmit_refund', input: { order_id: 'ORD1' } };
const answer = await approve(call, 'a write', { signal: run.signal });
const { stdin } = process;
process.stdout.write('ANSWER=' + JSON.stringify(answer) + ' RAW=' + stdin.isRaw + ' FLOWING=' + stdin.readableFlowing + ' KEYPRESS=' + stdin.listenerCount('keypress') + '\\n');
// No process.exit: an input left reading would keep node running, and the driver would time out.
`;

/** Cancels the run once the question is shown, and waits for node to end on its own. */
const WITHDRAW_DRIVER = `
import os, pty, select, signal, sys, time
node, script = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.execv(node, [node, script])
shown = b''
end = time.time() + 20
def read_some():
    global shown
    if select.select([fd], [], [], 0.05)[0]:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b''
        shown += chunk
        return len(chunk) > 0
    return True
while shown.find(b'[y/N/later] ') < 0:
    if time.time() > end or not read_some():
        sys.exit('no question; the terminal showed %r' % shown)
os.kill(pid, signal.SIGUSR2)
while True:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    if time.time() > end:
        os.kill(pid, signal.SIGKILL)
        sys.exit('node did not end after the cancel; the terminal showed %r' % shown)
    read_some()
while select.select([fd], [], [], 0)[0] and read_some():
    pass
sys.stdout.write(shown.decode('utf8', 'replace'))
`;

describe('createTerminalApprover on a real pseudo-terminal, when the run is cancelled', () => {
  it.skipIf(!hasPty)(
    'withdraws the open question with a note and leaves the terminal so node can end (skipped without python3 and its pty module)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'approver-pty-'));
      try {
        const approver = new URL(
          '../../../dist/refund-desk/cli/terminal-approver.js',
          import.meta.url,
        ).href;
        const script = join(dir, 'withdraw.mjs');
        writeFileSync(script, WITHDRAW_SCRIPT(approver));
        const driven = spawnSync('python3', ['-c', WITHDRAW_DRIVER, process.execPath, script], {
          encoding: 'utf8',
          timeout: 25_000,
          killSignal: 'SIGKILL',
        });
        expect(driven.stderr).toBe('');
        expect(driven.status).toBe(0);
        // readline moves the cursor back after its prompt (ESC [67G): not text the human reads.
        const shown = stripVTControlCharacters(driven.stdout.replaceAll('\r\n', '\n'));
        expect(shown).toMatch(
          /\[y\/N\/later\] \n\(question withdrawn: the run was cancelled\)\nANSWER="defer" RAW=false FLOWING=false KEYPRESS=0\n$/,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
