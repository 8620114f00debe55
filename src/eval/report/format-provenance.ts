import { PROVIDER_DEFAULTS, PROVIDERS, type Provider } from '../../model-api/provider.js';
import type { EvalReport, TrialProvenance } from './report-schema.js';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1', '0.0.0.0']);

/** The host name without the port: 127.0.0.1:46437 -> 127.0.0.1. */
export function hostName(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? host);
}

/** The provider a trial spoke to: recorded, else the one whose public host it is (older reports). */
export function providerOf(
  trial: Pick<TrialProvenance, 'provider' | 'host'>,
): Provider | undefined {
  if (trial.provider !== undefined) return trial.provider;
  const name = trial.host === undefined ? undefined : hostName(trial.host);
  return PROVIDERS.find((provider) => PROVIDER_DEFAULTS[provider].publicHost === name);
}

function originOf(trial: Pick<TrialProvenance, 'source' | 'host' | 'provider'>): string {
  const source = trial.source ?? 'unknown source';
  if (trial.host === undefined) return source;
  const name = hostName(trial.host);
  const provider = providerOf(trial);
  const api = provider ? `${PROVIDER_DEFAULTS[provider].label} API` : 'API';
  if (source !== 'live') return `${source} at ${name}`;
  if (provider && name === PROVIDER_DEFAULTS[provider].publicHost) return `live ${api} (${name})`;
  if (LOCAL_HOSTS.has(name)) {
    return `live-labelled, recorded against a local server at ${name}, not the public ${api}`;
  }
  const publicHost = provider ? ` (not ${PROVIDER_DEFAULTS[provider].publicHost})` : '';
  return `live ${api}, through ${name}${publicHost}`;
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
