import { lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PEER_AGENT, peerEvalFile, writeAgentShim, writePeerProject } from './peer-workload.js';

const dir = mkdtempSync(join(tmpdir(), 'peer-workload-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('peer workload', () => {
  it('re-exports the agent from a file under node_modules/, which vitest loads natively', () => {
    const shim = writeAgentShim(join(dir, 'agent'));
    expect(shim).toBe(join(dir, 'agent/node_modules/harness-bench-agent.mjs'));
    // vitest's default: a .mjs file whose path has /node_modules/ is external (not transformed).
    expect(shim).toMatch(/\/node_modules\/.*\.mjs$/);
    expect(readFileSync(shim, 'utf8')).toBe(
      `export * from ${JSON.stringify(pathToFileURL(PEER_AGENT).href)};\n`,
    );
  });

  it('writes one eval file per peer that runs the agent, with the trial count baked in', () => {
    const evalite = peerEvalFile('evalite', 600, './agent.mjs');
    expect(evalite.name).toBe('refund.eval.ts');
    expect(evalite.text).toContain('trialCount: 600,');
    expect(evalite.text).toContain(
      `import { checkAnswer, PROMPT, runRefundTrial } from "./agent.mjs";`,
    );
    const vitestEvals = peerEvalFile('vitest-evals', 600, './agent.mjs');
    expect(vitestEvals.name).toBe('refund.test.ts');
    expect(vitestEvals.text).toContain('Array.from({ length: 600 }');
    expect(vitestEvals.text).toContain('return { output: answer, events: events(messages) };');
    expect(vitestEvals.text).toContain('expect(checkAnswer(result.output)).toBe(true);');
  });

  it('lays out a peer project: the eval file importing the shim, node_modules linked', () => {
    const project = join(dir, 'evalite-1');
    const nodeModules = join(dir, 'fake-node-modules');
    writePeerProject({
      dir: project,
      peer: 'evalite',
      trials: 1,
      shim: join(dir, 'agent/node_modules/harness-bench-agent.mjs'),
      nodeModules,
    });
    const text = readFileSync(join(project, 'refund.eval.ts'), 'utf8');
    expect(text).toContain('trialCount: 1,');
    expect(text).toContain('from "./../agent/node_modules/harness-bench-agent.mjs"');
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))).toMatchObject({
      type: 'module',
    });
    expect(lstatSync(join(project, 'node_modules')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(project, 'node_modules'))).toBe(nodeModules);
  });
});
