import { canonicalJson } from '../../core/canonical-json.js';
import type { PreToolUseHook, ToolCallRecord } from '../types.js';

export interface BlockRepeatedCallOptions {
  /** Let a call through once more when its only identical predecessor timed out. */
  allowTimeoutRetryOnce?: boolean;
}

/**
 * PreToolUse hook that denies a call identical (same tool, same canonical input) to an earlier
 * call of the run, or to an earlier call of the same turn (parallel calls): repeating it cannot
 * give a new answer and burns steps. A call the run was cancelled before (decision `cancelled`)
 * does not count: it never ran.
 *
 * @example
 * const hooks = { preToolUse: [blockRepeatedCall({ allowTimeoutRetryOnce: true })] };
 */
export function blockRepeatedCall(options: BlockRepeatedCallOptions = {}): PreToolUseHook {
  return (call, run) => {
    const fingerprint = canonicalJson(call.input);
    // Parallel calls of one turn are not in the history yet: the first of identical ones runs.
    const twin = run.earlierInBatch?.find(
      (other) => other.name === call.name && canonicalJson(other.input) === fingerprint,
    );
    if (twin) {
      return {
        decision: 'deny',
        reason: `${call.name} is called with the same arguments earlier in this turn (${twin.id}); its result answers this call too: do not repeat it`,
      };
    }
    const earlier = run.history.filter(
      (record) => record.tool === call.name && canonicalJson(record.input) === fingerprint,
    );
    if (earlier.length === 0) return undefined;
    if (
      options.allowTimeoutRetryOnce &&
      earlier.length === 1 &&
      earlier[0]!.decision === 'timeout'
    ) {
      return undefined;
    }
    const decision = mostTelling(earlier).decision;
    return {
      decision: 'deny',
      reason: `${call.name} was already called with the same arguments in this run (decision: ${decision}); do not repeat it: answer with what you have or ask the user`,
    };
  };
}

/** The latest identical call that actually ran: an earlier block by this hook says nothing new. */
function mostTelling(records: readonly ToolCallRecord[]): ToolCallRecord {
  const ran = records.filter((record) => record.decision !== 'hook_deny');
  return (ran.length > 0 ? ran : records).at(-1)!;
}
