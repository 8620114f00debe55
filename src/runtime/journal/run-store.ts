import { WriteNotMadeError } from '../../core/errors.js';
import { holdsMaskedSecret } from '../../core/redact.js';

/**
 * The tools' per-run store. Credentials never reach the journal, so a store read back on resume
 * holds a credential as its mask (`sk-ant-[redacted]`): reading that value throws instead of
 * handing the mask to a call, and the call fails before it does anything (WriteNotMadeError).
 */
export class RunStore extends Map<string, unknown> {
  override get(name: string): unknown {
    const value = super.get(name);
    if (value !== undefined && holdsMaskedSecret(value)) {
      throw new WriteNotMadeError(
        `run.store '${name}' holds a credential the run's journal kept masked, not its value, so the call did not run; keep credentials out of run.store (read them from the environment in the tool)`,
      );
    }
    return value;
  }
}
