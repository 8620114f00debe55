import type { EvalReport, TrialProvenance } from './report-schema.js';

const PUBLIC_API_HOST = 'api.anthropic.com';
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1', '0.0.0.0']);

/** The host name without the port: 127.0.0.1:46437 -> 127.0.0.1. */
export function hostName(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? host);
}

function originOf(trial: Pick<TrialProvenance, 'source' | 'host'>): string {
  const source = trial.source ?? 'unknown source';
  if (trial.host === undefined) return source;
  const name = hostName(trial.host);
  if (source === 'live' && name === PUBLIC_API_HOST) return `live Anthropic API (${name})`;
  if (source === 'live' && LOCAL_HOSTS.has(name)) {
    return `live-labelled, recorded against a local server at ${name}, not the public API`;
  }
  if (source === 'live') return `live, through ${name} (not ${PUBLIC_API_HOST})`;
  return `${source} at ${name}`;
}

/** "1-3", "1, 3, 5-6". */
function trialRanges(trials: readonly number[]): string {
  const sorted = [...new Set(trials)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let index = 0; index < sorted.length; index++) {
    const start = sorted[index]!;
    let end = start;
    while (sorted[index + 1] === end + 1) end = sorted[++index]!;
    ranges.push(end === start ? `${start}` : `${start}-${end}`);
  }
  return ranges.join(', ');
}

/**
 * Where the fixtures came from, one line per origin (source and host), naming the trials
 * when more than one origin contributed: "simulator at 127.0.0.1: T1 upgraded 1-3, ...".
 */
export function describeOrigins(report: Pick<EvalReport, 'trialProvenance'>): {
  origins: string[];
  mixed: boolean;
  lines: string[];
} {
  const byOrigin = new Map<string, Map<string, number[]>>();
  for (const trial of report.trialProvenance) {
    const origin = originOf(trial);
    const groups = byOrigin.get(origin) ?? new Map<string, number[]>();
    const group = `${trial.task} ${trial.variant}`;
    groups.set(group, [...(groups.get(group) ?? []), trial.trial]);
    byOrigin.set(origin, groups);
  }
  const origins = [...byOrigin.keys()].sort();
  const mixed = origins.length > 1;
  const lines = mixed
    ? origins.map((origin) => {
        const groups = [...byOrigin.get(origin)!].map(
          ([group, trials]) => `${group} ${trialRanges(trials)}`,
        );
        return `${origin}: ${groups.join('; ')}`;
      })
    : [];
  return { origins, mixed, lines };
}
