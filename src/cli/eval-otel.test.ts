import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeExport, startOtlpReceiver } from '../eval/report/testing/otlp-receiver.js';
import { repositoryCopy } from '../eval/testing/judged-project.js';
import { runEvalCli } from './eval.js';
import { captureCli } from './testing/cli.js';

// Fake keys of the real shape: the configured key, and a collector token in the OTLP headers.
const FAKE_KEY = 'sk-ant-api03-FAKEcliKEYnotREAL0123456789abcdefABCDEF-xyzXYZ012345AA';
const FAKE_TOKEN = 'sk-ant-api03-FAKEcollectorTOKEN0123456789abcdefABCDEF-xyz0123';
let project: string;

/** A throwaway copy of the repository's evals, so reports land there. */
beforeAll(() => {
  project = repositoryCopy('eval-otel-');
  vi.spyOn(process, 'cwd').mockReturnValue(project);
  vi.stubEnv('CI', '1');
  vi.stubEnv('GITHUB_STEP_SUMMARY', '');
  vi.stubEnv('ANTHROPIC_API_KEY', FAKE_KEY);
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', '');
  vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', `authorization=Bearer%20${FAKE_TOKEN}`);
});
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(project, { recursive: true, force: true });
});

const T2 = ['--task', 'T2', '--trials', '1'];

describe('npm run eval -- --otel / --otel-endpoint', () => {
  it('writes the trace to a file and sends the same spans to the collector, with its headers', {
    timeout: 120_000,
  }, async () => {
    const receiver = await startOtlpReceiver();
    try {
      const args = [...T2, '--otel', 'reports/trace.json', '--otel-endpoint', receiver.url];
      const { code, stdout, stderr } = await captureCli(() =>
        runEvalCli([...args, '--otel-content']),
      );
      expect(code, stderr).toBe(0);
      expect(stdout).toContain('otel: wrote reports/trace.json (11 spans)');
      expect(stdout).toContain(`otel: sent 11 spans to ${receiver.url}/v1/traces`);
      const [sent] = receiver.received;
      expect(sent?.headers.authorization).toBe(`Bearer ${FAKE_TOKEN}`);
      const file = decodeExport(readFileSync(join(project, 'reports/trace.json'), 'utf8'));
      expect(file.spans.map((span) => span.spanId)).toEqual(sent?.spans.map((span) => span.spanId));
      const names = file.spans.map((span) => span.name).sort();
      expect(names.filter((name) => name.startsWith('trial '))).toEqual([
        'trial T2 baseline #1',
        'trial T2 upgraded #1',
      ]);
      // No credential leaves: not the configured key, not the collector's token.
      for (const text of [sent?.text ?? '', file.text, stdout, stderr]) {
        expect(text).not.toContain('FAKEcliKEY');
        expect(text).not.toContain('FAKEcollectorTOKEN');
      }
    } finally {
      await receiver.close();
    }
  });

  it('exits 2 naming the endpoint when the collector refuses, after writing the reports', {
    timeout: 120_000,
  }, async () => {
    const refusing = await startOtlpReceiver({ status: 503 });
    try {
      const { code, stdout, stderr } = await captureCli(() =>
        runEvalCli([...T2, '--otel-endpoint', refusing.url]),
      );
      expect(code).toBe(2);
      expect(stdout).toMatch(/gate: passed/);
      expect(stdout).not.toContain('otel: sent');
      expect(stderr).toBe(
        `eval: the collector at ${refusing.url}/v1/traces refused the trace: HTTP 503 {"code":16,"message":"missing credentials"}\n`,
      );
    } finally {
      await refusing.close();
    }
  });

  it('writes a trace per shard, and --merge writes the whole run', {
    timeout: 300_000,
  }, async () => {
    const run = async (args: string[]) => {
      const outcome = await captureCli(() => runEvalCli(args));
      expect(outcome.code, outcome.stderr).toBe(0);
      return outcome.stdout;
    };
    await run([...T2, '--shard', '1/2', '--otel', 'reports/shard-1.json']);
    await run([...T2, '--shard', '2/2', '--otel', 'reports/shard-2.json']);
    await run(['--merge', 'reports/shards', '--otel', 'reports/merged.json']);
    const trials = (file: string) => {
      const { spans } = decodeExport(readFileSync(join(project, 'reports', file), 'utf8'));
      const [runSpan] = spans.filter((span) => span.parentSpanId === undefined);
      const names = spans.filter((span) => span.name.startsWith('trial ')).map((span) => span.name);
      return { run: runSpan?.name, shard: runSpan?.attributes['harness_evals.shard'], names };
    };
    const [first, second, merged] = ['shard-1.json', 'shard-2.json', 'merged.json'].map(trials);
    expect(first).toMatchObject({ run: 'eval shard 1/2', shard: '1/2' });
    expect(second).toMatchObject({ run: 'eval shard 2/2', shard: '2/2' });
    expect([...first!.names, ...second!.names].sort()).toEqual(merged!.names.sort());
    expect(merged).toMatchObject({ run: 'eval', shard: undefined });
    expect(merged?.names).toHaveLength(2);
  });
});
