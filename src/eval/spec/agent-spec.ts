import type { AgentAdapter } from '../../adapters/types.js';
import { ConfigError } from '../../core/errors.js';
import { PROVIDERS, type Provider } from '../../model-api/provider.js';
import type { Harness } from '../../runtime/harness.js';
import type { Approver, RunMode } from '../../runtime/types.js';
import type { Policy } from '../../simulator/policy.js';

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
  /**
   * The model this agent records with unless `--model` says otherwise; default: the provider's
   * model variable (ANTHROPIC_MODEL, OPENAI_MODEL), else claude-opus-5 / gpt-4.1-mini.
   */
  model?: string;
  /** The environment variable of its API's base URL when recording live (default ANTHROPIC_BASE_URL / OPENAI_BASE_URL). */
  baseUrlEnv?: string;
  /** The environment variable of its API key when recording live (default ANTHROPIC_API_KEY / OPENAI_API_KEY). */
  apiKeyEnv?: string;
  /** The variant every other one is compared with (Δ columns, the paired suite Δ); default `baseline`, else the first. */
  baseline?: string;
  /** The offline model `record --simulated` serves this agent (see `defineModelScript`). */
  modelScript?: Policy;
  /** Evals run unattended unless a task says otherwise. */
  mode?: RunMode;
  approver?: Approver;
}

/** @example export const refundDesk = defineAgent({ suite: 'refund-desk', variants: ['baseline', 'upgraded'], createHarness }); */
export function defineAgent(spec: AgentSpec): AgentSpec {
  checkAgentNames(spec);
  if ((spec.createHarness === undefined) === (spec.run === undefined)) {
    throw new ConfigError(
      `agent ${spec.suite} needs exactly one of createHarness (this runtime) or run (any other agent)`,
    );
  }
  return spec;
}

/** `baseline` when declared, else the variant named baseline, else the first variant. */
export function baselineOf(spec: Pick<AgentSpec, 'variants' | 'baseline'>): string {
  return spec.baseline ?? (spec.variants.includes('baseline') ? 'baseline' : spec.variants[0]!);
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The provider fields, checked where checkAgentNames checks the names (evals do not type-check). */
function checkAgentProvider(spec: AgentSpec): void {
  const name = `agent ${spec.suite}`;
  if (spec.provider !== undefined && !PROVIDERS.includes(spec.provider)) {
    throw new ConfigError(
      `${name}: provider ${describeName(spec.provider)} is not one of ${PROVIDERS.join(', ')}`,
    );
  }
  if (spec.createHarness !== undefined && (spec.provider ?? 'anthropic') !== 'anthropic') {
    throw new ConfigError(
      `${name}: createHarness agents speak the Messages API (provider 'anthropic'); an agent on another provider uses run`,
    );
  }
  if (spec.model !== undefined && (typeof spec.model !== 'string' || spec.model.trim() === '')) {
    throw new ConfigError(
      `${name}: model ${describeName(spec.model)} is not a model id, e.g. model: 'gpt-4.1-mini'`,
    );
  }
  for (const field of ['baseUrlEnv', 'apiKeyEnv'] as const) {
    const value = spec[field];
    if (value !== undefined && (typeof value !== 'string' || !ENV_NAME.test(value))) {
      throw new ConfigError(
        `${name}: ${field} ${describeName(value)} is not an environment variable name, e.g. ${field}: '${field === 'baseUrlEnv' ? 'MY_GATEWAY_URL' : 'MY_GATEWAY_KEY'}'`,
      );
    }
  }
  if (spec.baseline !== undefined && !spec.variants.includes(spec.baseline)) {
    throw new ConfigError(
      `${name}: baseline ${describeName(spec.baseline)} is not one of its variants (${spec.variants.join(', ')})`,
    );
  }
}

/**
 * A variant names a fixtures folder (fixtures/<task>/<variant>/) and is the first word of
 * each trial's test name, which the eval reporter reads back.
 */
export const isVariantName = (name: string): boolean =>
  /^[A-Za-z0-9_.-]+$/.test(name) && !/^\.+$/.test(name);

/**
 * The suite and variant names, checked where they are declared (defineAgent) and again by
 * defineTask, since an AgentSpec can be written without defineAgent. Evals do not type-check.
 */
export function checkAgentNames(spec: AgentSpec): void {
  if (typeof spec.suite !== 'string' || spec.suite.trim() === '') {
    throw new ConfigError(
      `agent suite ${describeName(spec.suite)} is invalid: name the suite, e.g. suite: 'helpdesk'`,
    );
  }
  if (!Array.isArray(spec.variants) || spec.variants.length === 0) {
    throw new ConfigError(`agent ${spec.suite} declares no variants: add e.g. variants: ['v1']`);
  }
  // Lower-cased: names that differ only in case share a fixtures folder on macOS and Windows.
  const seen = new Set<string>();
  for (const variant of spec.variants as unknown[]) {
    if (typeof variant !== 'string' || !isVariantName(variant)) {
      throw new ConfigError(
        `variant ${describeName(variant)} of agent ${spec.suite} is invalid: use letters, digits, '_', '-' or '.' (it names a fixtures folder)`,
      );
    }
    if (seen.has(variant.toLowerCase())) {
      throw new ConfigError(`agent ${spec.suite} lists variant '${variant}' twice`);
    }
    seen.add(variant.toLowerCase());
  }
  checkAgentProvider(spec);
}

const describeName = (name: unknown) => (typeof name === 'string' ? `'${name}'` : String(name));
