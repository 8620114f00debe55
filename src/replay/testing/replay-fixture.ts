import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cassettePath } from '../cassette.js';
import {
  createReplayServer,
  type RecordOptions,
  type RecordResult,
  type ReplayOptions,
  type ReplayResult,
  type ReplayServer,
} from '../replay-server.js';
import { type FakeMessagesApi, startFakeMessagesApi } from './fake-messages-api.js';
import { runTestAgent, sessionClient, type TestAgentSpec } from './test-agent.js';

export const RERECORD = 'npm run record -- --task T1 --variant upgraded --trial 1';
export const NOW = '2025-03-01T09:00:00.000Z';

/** A listening replay server, a fake Messages API on 127.0.0.1 and a temp fixtures root. */
export interface ReplayFixture {
  server: ReplayServer;
  api: FakeMessagesApi;
  root: string;
  file(trial: number): string;
  /** Record the test agent for trial `trial` of T1/upgraded. */
  record(
    trial: number,
    spec: TestAgentSpec,
    options?: Partial<RecordOptions> & { maxRetries?: number },
  ): Promise<RecordResult<string>>;
  /** Replay the test agent for trial `trial` of T1/upgraded. */
  replay(
    trial: number,
    spec: TestAgentSpec,
    options?: Partial<ReplayOptions>,
  ): Promise<ReplayResult<string>>;
  close(): Promise<void>;
}

export async function startReplayFixture(): Promise<ReplayFixture> {
  const server = createReplayServer();
  server.listen();
  const api = await startFakeMessagesApi();
  const root = await mkdtemp(path.join(tmpdir(), 'replay-'));
  const file = (trial: number) => cassettePath(root, 'T1', 'upgraded', trial);
  return {
    server,
    api,
    root,
    file,
    record: (trial, spec, options = {}) =>
      server.record(
        {
          file: file(trial),
          meta: {
            task: 'T1',
            variant: 'upgraded',
            trial,
            now: NOW,
            model: spec.model,
            source: 'simulator',
          },
          upstreamBaseURL: api.url,
          ...options,
        },
        (session) => runTestAgent(sessionClient(session, options.maxRetries ?? 0), spec),
      ),
    replay: (trial, spec, options = {}) =>
      server.replay(
        {
          file: file(trial),
          label: { task: 'T1', variant: 'upgraded', trial },
          rerecordCommand: RERECORD,
          ...options,
        },
        (session) => runTestAgent(sessionClient(session), spec),
      ),
    async close() {
      server.close();
      await api.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
