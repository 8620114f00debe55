import { createReplayServer } from '../replay/replay-server.js';

let server: ReturnType<typeof createReplayServer> | undefined;

/** One msw server per worker, listening from first use; trials share it through their own sessions. */
export function sharedReplayServer(): ReturnType<typeof createReplayServer> {
  if (!server) {
    server = createReplayServer();
    server.listen();
  }
  return server;
}
