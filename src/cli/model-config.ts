import Anthropic from '@anthropic-ai/sdk';
import { ConfigError } from '../core/errors.js';

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
  const baseURL = env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com';
  try {
    new URL(baseURL);
  } catch {
    throw new ConfigError(
      `ANTHROPIC_BASE_URL '${baseURL}' is not a URL: use e.g. http://127.0.0.1:8787`,
    );
  }
  return new Anthropic({ apiKey, baseURL, maxRetries: 2, ...extra });
}
