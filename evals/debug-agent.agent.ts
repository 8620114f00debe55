import { ConfigError, defineAgent } from '../src/index.js';
import {
  createDebugAgentHarness,
  createSandbox,
  DEBUG_AGENT_VARIANTS,
  type DebugAgentVariant,
} from '../src/reference-agents.js';

/**
 * The seed-001 code-debugging agent under test. Every trial gets its own copy of the demo
 * project in a fresh temporary directory; the trial runner disposes of it afterwards.
 */
export const debugAgent = defineAgent({
  suite: 'debug-agent',
  variants: DEBUG_AGENT_VARIANTS,
  mode: 'unattended',
  createHarness: (variant) => {
    if (!(DEBUG_AGENT_VARIANTS as readonly string[]).includes(variant)) {
      throw new ConfigError(
        `unknown debug-agent variant '${variant}': use ${DEBUG_AGENT_VARIANTS.join(' or ')}`,
      );
    }
    return createDebugAgentHarness(variant as DebugAgentVariant, { sandbox: createSandbox() });
  },
});
