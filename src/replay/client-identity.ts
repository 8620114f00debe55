/** The client library an agent's requests came from, as a cassette keeps it. */
export interface ClientIdentity {
  /** The npm package: `openai`, `@anthropic-ai/sdk`, `ai` (the Vercel AI SDK), `harness-evals`. */
  sdk: string;
  version: string;
}

/** How SDKs spell themselves in `user-agent`, as npm names them. */
const NPM_NAMES: Readonly<Record<string, string>> = {
  'openai/js': 'openai',
  'anthropic/js': '@anthropic-ai/sdk',
};

/**
 * The client a request's `user-agent` names: `OpenAI/JS 6.30.1` is openai 6.30.1,
 * `ai/6.0.333 ai-sdk/openai/3.0.141 ...` the Vercel AI SDK (`ai`) 6.0.333, `ai-sdk/openai/3.0.141`
 * alone @ai-sdk/openai, `harness-evals/0.1.0` this package's own clients; else its first
 * `name/version` token that is no runtime. Undefined when it names none (plain `fetch` sends
 * no user-agent of its own through the recorder).
 */
export function clientOf(userAgent: string | null | undefined): ClientIdentity | undefined {
  const text = userAgent?.trim() ?? '';
  const spaced = /^(\S+\/JS) (\d\S*)/i.exec(text);
  if (spaced) {
    return { sdk: NPM_NAMES[spaced[1]!.toLowerCase()] ?? spaced[1]!, version: spaced[2]! };
  }
  const tokens = text.split(/\s+/).flatMap((token) => {
    const match = /^(.+?)\/(\d[\w.+-]*)$/.exec(token);
    return match ? [{ name: match[1]!, version: match[2]! }] : [];
  });
  const named = (name: string) => tokens.find((token) => token.name === name);
  const core = named('ai');
  if (core) return { sdk: 'ai', version: core.version };
  const first = tokens.find(
    (token) => !/^(runtime|node|ai-sdk\/provider-utils)(\/|$)/i.test(token.name),
  );
  if (!first) return undefined;
  const sdk = first.name.startsWith('ai-sdk/') ? `@${first.name}` : first.name;
  return { sdk, version: first.version };
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
