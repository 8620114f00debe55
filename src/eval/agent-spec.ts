import type { AgentAdapter, Provider } from '../adapters/types.js';
import { ConfigError } from '../core/errors.js';
import type { Harness } from '../runtime/harness.js';
import type { Approver, RunMode } from '../runtime/types.js';
import type { Policy } from '../simulator/policy.js';

/**
 * What the eval framework needs to know about an agent under test: its suite
 * name, its variants and how to run each one. Same model, same tools:
 * the variant is the only thing that changes between columns of a report.
 *
 * An agent is either built on this runtime (`createHarness`) or any other code behind
 * an adapter (`run`): a function given the prompt, a `fetch`, the clock and a signal.
 */
export interface AgentSpec {
  suite: string;
  variants: readonly string[];
  /** This runtime: the harness of a variant. */
  createHarness?(variant: string, context: { projectDir: string }): Harness;
  /** Any other agent (raw SDK loop, OpenAI-compatible client, ...); `context.variant` says which. */
  run?: AgentAdapter;
  /** The wire format `run` speaks (default `anthropic`): picks the key, base URL and simulator route. */
  provider?: Provider;
  /** The offline model `record --simulated` serves this agent (see `defineModelScript`). */
  modelScript?: Policy;
  /** Evals run unattended unless a task says otherwise. */
  mode?: RunMode;
  approver?: Approver;
}

/** @example export const refundDesk = defineAgent({ suite: 'refund-desk', variants: ['baseline', 'upgraded'], createHarness }); */
export function defineAgent(spec: AgentSpec): AgentSpec {
  if (spec.variants.length === 0) {
    throw new ConfigError(`agent ${spec.suite} declares no variants: add e.g. variants: ['v1']`);
  }
  if ((spec.createHarness === undefined) === (spec.run === undefined)) {
    throw new ConfigError(
      `agent ${spec.suite} needs exactly one of createHarness (this runtime) or run (any other agent)`,
    );
  }
  return spec;
}
