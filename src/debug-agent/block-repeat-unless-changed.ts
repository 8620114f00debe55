import { canonicalJson, type PreToolUseHook } from '../index.js';

/**
 * PreToolUse hook: deny a call identical to an earlier one, unless a write succeeded since
 * that call. Running the tests again after a fix (or re-reading the fixed file) is progress;
 * running them again with nothing changed cannot give a new answer.
 *
 * @example
 * const hooks = { preToolUse: [blockRepeatUnlessChanged({ writeTools: ['write_file'] })] };
 */
export function blockRepeatUnlessChanged(options: {
  writeTools: readonly string[];
}): PreToolUseHook {
  const writes = new Set(options.writeTools);
  return (call, run) => {
    const fingerprint = canonicalJson(call.input);
    const history = run.history;
    let last = -1;
    for (const [index, record] of history.entries()) {
      if (record.tool === call.name && canonicalJson(record.input) === fingerprint) last = index;
    }
    if (last < 0) return undefined;
    const changedSince = history
      .slice(last + 1)
      .some((record) => writes.has(record.tool) && !record.isError);
    if (changedSince) return undefined;
    return {
      decision: 'deny',
      reason: `${call.name} was already called with the same arguments and nothing has changed since; use that result, or change something first`,
    };
  };
}
