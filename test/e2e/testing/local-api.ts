import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatSseEvent } from '../../../src/model-api/sse.js';
import type { Policy } from '../../../src/simulator/policy.js';
import { respond } from '../../../src/simulator/respond.js';
import { respondResponses } from '../../../src/simulator/responses.js';

/** A stand-in for a live API on 127.0.0.1. */
export interface LocalApi {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

/**
 * A server on 127.0.0.1 playing the live Messages and Responses APIs with `policy`, without the
 * simulator's marks (`x-harness-*` headers), so a live recording takes it for a live API: the
 * "independent fake server" a team records against when it has no key. Nothing else answers.
 */
export async function startLocalApi(policy: Policy): Promise<LocalApi> {
  let count = 0;
  const items = new Map<string, Record<string, unknown>>();
  const server = createServer((request, response) => {
    count += 1;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
      );
      const responses = (request.url ?? '').endsWith('/responses');
      const answer = responses
        ? respondResponses(body, headers, { policies: [policy], items })
        : respond(body, headers, { policies: [policy] });
      const kept = Object.entries(answer.headers).filter(([name]) => !name.startsWith('x-harness'));
      response.writeHead(answer.status, Object.fromEntries(kept));
      const events = 'events' in answer ? answer.events : undefined;
      if (!events) {
        response.end(JSON.stringify(answer.body));
        return;
      }
      for (const data of events) {
        const { type } = data as { type: string };
        response.write(formatSseEvent({ event: type, data }));
      }
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
