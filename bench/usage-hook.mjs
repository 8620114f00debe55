// Preloaded by `npm run bench` into each measured process (node --import): at exit it
// writes the process's CPU time, the CPU time of the children it waited for (vitest's fork
// workers), peak RSS and its still-present child processes (running or defunct) as one JSON
// line to the file named by HARNESS_BENCH_USAGE.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const target = process.env.HARNESS_BENCH_USAGE;
// Forked children inherit --import: without the variable they leave the parent's file alone.
delete process.env.HARNESS_BENCH_USAGE;
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      target,
      `${JSON.stringify({
        cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
        childCpuMs: waitedChildrenCpuMs(),
        maxRssKb: usage.maxRSS,
        children: children(process.pid),
      })}\n`,
    );
  });
}

/** Children of every thread of `pid`, from /proc (Linux); undefined elsewhere. */
function children(pid) {
  try {
    const found = [];
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of listed ? listed.split(/\s+/) : []) {
        const stat = readFileSync(`/proc/${child}/stat`, 'utf8');
        const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
        found.push(`${child} ${stat.slice(stat.indexOf('('), stat.lastIndexOf(')') + 1)} ${state}`);
      }
    }
    return found;
  } catch {
    return undefined;
  }
}

/**
 * User + system CPU of the terminated children this process waited for (cutime + cstime in
 * /proc/self/stat, in USER_HZ = 100 ticks a second on Linux); undefined elsewhere.
 */
function waitedChildrenCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}
