// Preloaded by `npm run bench` into each measured process (node --import): at exit it
// writes the process's CPU time, peak RSS and its still-present child processes (running
// or defunct) as one JSON line to the file named by HARNESS_BENCH_USAGE.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const target = process.env.HARNESS_BENCH_USAGE;
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      target,
      `${JSON.stringify({
        cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
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
