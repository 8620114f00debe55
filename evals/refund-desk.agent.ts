import { ConfigError, defineAgent } from 'harness-evals';
import {
  createRefundDeskHarness,
  REFUND_DESK_VARIANTS,
  type RefundDeskVariant,
  refundDeskPolicy,
} from '#reference-agents';

/** The refund desk under test: two harness variants around the same model and tools. */
export const refundDesk = defineAgent({
  suite: 'refund-desk',
  variants: REFUND_DESK_VARIANTS,
  mode: 'unattended',
  // Its simulated model (record --simulated; record --verify re-derives the cassettes with it).
  modelScript: refundDeskPolicy,
  createHarness: (variant, { projectDir }) => {
    if (!(REFUND_DESK_VARIANTS as readonly string[]).includes(variant)) {
      throw new ConfigError(
        `unknown refund-desk variant '${variant}': use ${REFUND_DESK_VARIANTS.join(' or ')}`,
      );
    }
    // Evals load only the committed AGENTS.md: a personal AGENTS.local.md must not change CI results.
    return createRefundDeskHarness(variant as RefundDeskVariant, {
      projectDir,
      instructionFiles: ['AGENTS.md'],
    });
  },
});
