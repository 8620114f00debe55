import { ConfigError } from '../../core/errors.js';
import type { ApprovalDecisions } from '../../runtime/resume-agent.js';

/** `--approve` / `--reject` with no hash after them answer every listed call: given as ''. */
export const bareDecisions = (argv: string[]) =>
  argv.map((arg, index) =>
    (arg === '--approve' || arg === '--reject') && (argv[index + 1] ?? '-').startsWith('-')
      ? `${arg}=`
      : arg,
  );

/** The answers `--approve` / `--reject` give: all listed calls, or per hash. */
export function approvalFlags(
  approve: readonly string[] | undefined,
  reject: readonly string[] | undefined,
): ApprovalDecisions | undefined {
  if (approve === undefined && reject === undefined) return undefined;
  const named = (values: readonly string[] | undefined) =>
    (values ?? []).flatMap((value) => value.split(',')).map((hash) => hash.trim());
  const yes = named(approve);
  const no = named(reject);
  const all = [...yes, ...no];
  if (all.includes('')) {
    if (all.length > 1) {
      throw new ConfigError(
        'give --approve or --reject alone (every listed call), or each with the hashes the listing shows, not both',
      );
    }
    return yes.length === 1;
  }
  const twice = yes.filter((hash) => no.includes(hash));
  if (twice.length > 0) {
    throw new ConfigError(`hash ${twice.join(', ')} is given to both --approve and --reject`);
  }
  return Object.fromEntries([
    ...yes.map((hash) => [hash, true]),
    ...no.map((hash) => [hash, false]),
  ]);
}
