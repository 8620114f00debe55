import { readdirSync, readFileSync } from 'node:fs';

/** The environment variable that marks every process a sandboxed child starts. */
export const RUN_MARKER_VARIABLE = 'HARNESS_SANDBOX_RUN';

/** True where /proc lists processes with their environment and parent (Linux). */
export const CAN_SWEEP = process.platform === 'linux' && canRead('/proc/self/stat');

interface ProcessInfo {
  pid: number;
  parent: number;
  group: number;
  session: number;
}

/**
 * Kill (SIGKILL) every process that belongs to a sandboxed child: its process group, its
 * session, every process whose environment carries `marker`, and every descendant of those
 * that is still parented. Repeats until a scan finds nothing, so a process forked during
 * the sweep is caught by the next scan. Returns the pids killed.
 *
 * Linux only (it reads /proc). A process that both drops the marker from its environment
 * (exec with a new environment) and leaves the tree (double fork + setsid) escapes it.
 */
export function sweepProcesses(leader: number, marker: string): number[] {
  if (!CAN_SWEEP) return [];
  const killed: number[] = [];
  const needle = `${RUN_MARKER_VARIABLE}=${marker}\0`;
  for (let round = 0; round < 50; round += 1) {
    const found = findMembers(leader, needle);
    if (found.length === 0) break;
    for (const pid of found) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.push(pid);
      } catch {
        // ESRCH: already gone; EPERM: not ours, so not started by the child either.
      }
    }
  }
  return killed;
}

function findMembers(leader: number, needle: string): number[] {
  const all = listProcesses();
  const members = new Set<number>();
  for (const info of all) {
    if (info.pid === process.pid) continue;
    if (
      info.group === leader ||
      info.session === leader ||
      readText(`/proc/${info.pid}/environ`).includes(needle)
    ) {
      members.add(info.pid);
    }
  }
  // Descendants of members, even those started with a clean environment.
  let grew = members.size > 0;
  while (grew) {
    grew = false;
    for (const info of all) {
      if (!members.has(info.pid) && members.has(info.parent) && info.pid !== process.pid) {
        members.add(info.pid);
        grew = true;
      }
    }
  }
  return [...members];
}

function listProcesses(): ProcessInfo[] {
  const result: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readText(`/proc/${name}/stat`);
    // Fields after the command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie is already dead; it only waits for its parent to reap it.
    if (fields.length < 4 || fields[0] === 'Z') continue;
    result.push({
      pid: Number(name),
      parent: Number(fields[1]),
      group: Number(fields[2]),
      session: Number(fields[3]),
    });
  }
  return result;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    // The process ended, or its environment is not ours to read.
    return '';
  }
}

function canRead(path: string): boolean {
  return readText(path) !== '';
}
