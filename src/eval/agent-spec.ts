import type { Harness } from '../runtime/harness.js';
import type { Approver, RunMode } from '../runtime/types.js';

/**
 * What the eval framework needs to know about an agent under test: its suite
 * name, its harness variants and how to build each one. Same model, same tools:
 * the variant is the only thing that changes between columns of a report.
 */
export interface AgentSpec {
  suite: string;
  variants: readonly string[];
  createHarness(variant: string, context: { projectDir: string }): Harness;
  /** Evals run unattended unless a task says otherwise. */
  mode?: RunMode;
  approver?: Approver;
}

/** @example export const refundDesk = defineAgent({ suite: 'refund-desk', variants: ['baseline', 'upgraded'], createHarness }); */
export function defineAgent(spec: AgentSpec): AgentSpec {
  if (spec.variants.length === 0) throw new Error(`agent ${spec.suite} declares no variants`);
  return spec;
}
