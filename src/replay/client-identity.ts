/** The client library an agent's requests came from, as a cassette keeps it. */
export interface ClientIdentity {
  /** The npm package: `openai`, `@anthropic-ai/sdk`, `ai` (the Vercel AI SDK), `harness-evals`. */
  sdk: string;
  version: string;
}

/** How SDKs spell themselves in `user-agent`, first product token, as npm names them. */
const KNOWN: ReadonlyArray<[RegExp, string]> = [
  [/^OpenAI\/JS$/i, 'openai'],
  [/^Anthropic\/JS$/i, '@anthropic-ai/sdk'],
];

/**
 * The client a request's `user-agent` names: `OpenAI/JS 6.30.1` is openai 6.30.1,
 * `ai/6.0.333 ai-sdk/provider-utils/...` the Vercel AI SDK 6.0.333, `harness-evals/0.1.0`
 * this package's own clients; else its first `name/version` token. Undefined when it names
 * none (plain `fetch` sends no user-agent of its own through the recorder).
 */
export function clientOf(userAgent: string | null | undefined): ClientIdentity | undefined {
  const text = userAgent?.trim() ?? '';
  const spaced = /^(\S+\/JS) (\d\S*)/i.exec(text);
  if (spaced) {
    const known = KNOWN.find(([pattern]) => pattern.test(spaced[1]!));
    return { sdk: known?.[1] ?? spaced[1]!, version: spaced[2]! };
  }
  const token = /^((?:@[\w.-]+\/)?[\w.-]+)\/(\d[\w.+-]*)/.exec(text);
  return token ? { sdk: token[1]!, version: token[2]! } : undefined;
}

/** The one client of a trial's requests; several are listed, joined with ` + `. */
export function describeClients(identities: readonly ClientIdentity[]): ClientIdentity {
  const distinct = [...new Map(identities.map((id) => [`${id.sdk}@${id.version}`, id])).values()];
  if (distinct.length === 0) return { sdk: 'unidentified client', version: 'unknown' };
  return {
    sdk: distinct.map((id) => id.sdk).join(' + '),
    version: distinct.map((id) => id.version).join(' + '),
  };
}
