import {
  ConfigError,
  createDebugAgentHarness,
  createSandbox,
  DEBUG_AGENT_VARIANTS,
  type DebugAgentVariant,
  defineAgent,
} from '../src/index.js';

/**
 * The seed-001 code-debugging agent under test. Every trial gets its own copy of the demo
 * project in a fresh temporary directory; the trial runner disposes of it afterwards.
 * run_test starts the test process once per distinct code (bundle bytes) per worker.
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
    // The demo project's test depends on its code alone: a run of the same code is reused.
    return createDebugAgentHarness(variant as DebugAgentVariant, {
      sandbox: createSandbox(),
      reuseTestResults: true,
    });
  },
});
