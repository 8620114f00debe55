import { createRequire } from 'node:module';

/**
 * The `user-agent` this package's own clients (Chat Completions, Responses) send, so a
 * cassette names the client as it does `openai` or `@anthropic-ai/sdk` (replay/client-identity.ts).
 * The package's own manifest, two folders up from src/adapters and from dist/adapters alike.
 */
export const HARNESS_EVALS_USER_AGENT = `harness-evals/${
  (createRequire(import.meta.url)('../../package.json') as { version: string }).version
}`;
