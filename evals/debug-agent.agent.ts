import { ConfigError, defineAgent } from 'harness-evals';
import {
  createDebugAgentHarness,
  createSandboxPool,
  DEBUG_AGENT_VARIANTS,
  type DebugAgentVariant,
  debugAgentPolicy,
} from '#reference-agents';

/** Sandboxes that come back unchanged are reused: every trial still starts from the template. */
const sandboxes = createSandboxPool();

/**
 * The seed-001 code-debugging agent under test. Every trial gets its own copy of the demo
 * project, identical to the template; the trial runner disposes of it afterwards.
 * run_test starts the test process once per distinct code (bundle bytes) per worker.
 */
export const debugAgent = defineAgent({
  suite: 'debug-agent',
  variants: DEBUG_AGENT_VARIANTS,
  mode: 'unattended',
  // Its simulated model (record --simulated; record --verify re-derives the cassettes with it).
  modelScript: debugAgentPolicy,
  createHarness: (variant) => {
    if (!(DEBUG_AGENT_VARIANTS as readonly string[]).includes(variant)) {
      throw new ConfigError(
        `unknown debug-agent variant '${variant}': use ${DEBUG_AGENT_VARIANTS.join(' or ')}`,
      );
    }
    // The demo project's test depends on its code alone: a run of the same code is reused.
    return createDebugAgentHarness(variant as DebugAgentVariant, {
      sandbox: sandboxes.acquire(),
      reuseTestResults: true,
    });
  },
});
