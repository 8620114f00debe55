import Anthropic from '@anthropic-ai/sdk';
import { ConfigError } from '../core/errors.js';
import { findSecret } from '../replay/secret-scan.js';

export const DEFAULT_MODEL = 'claude-opus-5';

/** The model id: `--model`, else ANTHROPIC_MODEL, else the default. */
export function resolveModelId(flag: string | undefined, env = process.env): string {
  return flag ?? env.ANTHROPIC_MODEL ?? DEFAULT_MODEL;
}

/** A live client from ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL, or a clear ConfigError. */
export function createLiveClient(
  env = process.env,
  extra: { defaultHeaders?: Record<string, string> } = {},
): Anthropic {
  const apiKey = env.ANTHROPIC_API_KEY;
  if (!apiKey) {
    throw new ConfigError(
      'ANTHROPIC_API_KEY is not set: export your key, or start a local stand-in (npm run simulator) and set ANTHROPIC_BASE_URL to its URL with any key',
    );
  }
  const baseURL = checkBaseUrl(env);
  return new Anthropic({ apiKey, baseURL, maxRetries: 2, ...extra });
}

/**
 * A base URL variable's value (its default when unset), or a ConfigError naming the variable and
 * the fix when it is not an http(s) URL. The value is shown unless it looks like a credential.
 */
export function checkBaseUrl(
  env: NodeJS.ProcessEnv = process.env,
  variable = 'ANTHROPIC_BASE_URL',
): string {
  const baseURL =
    env[variable] ||
    (variable === 'ANTHROPIC_BASE_URL' ? 'https://api.anthropic.com' : 'https://api.openai.com/v1');
  let protocol: string | undefined;
  try {
    protocol = new URL(baseURL).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol === 'http:' || protocol === 'https:') return baseURL;
  const shown = findSecret(baseURL, { env })
    ? '(a value that looks like a key)'
    : `'${baseURL.slice(0, 100)}'`;
  throw new ConfigError(
    `${variable} ${shown} is not an http(s) URL: set it to e.g. http://127.0.0.1:8787, or unset it to use the live API`,
  );
}
