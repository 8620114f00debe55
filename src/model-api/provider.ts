/** The wire format an agent speaks: the Messages API (`anthropic`) or the OpenAI APIs (Chat Completions, Responses). */
export type Provider = 'anthropic' | 'openai';

export const PROVIDERS: readonly Provider[] = ['anthropic', 'openai'];

/** What each provider's agents use when they declare nothing else. */
export interface ProviderDefaults {
  /** How reports name it: "the live OpenAI API". */
  label: string;
  /** The public API's host, told apart from gateways and local servers in reports. */
  publicHost: string;
  defaultBaseURL: string;
  baseUrlEnv: string;
  apiKeyEnv: string;
  /** The environment variable that names the default model, then the model itself. */
  modelEnv: string;
  defaultModel: string;
}

export const PROVIDER_DEFAULTS: Readonly<Record<Provider, ProviderDefaults>> = {
  anthropic: {
    label: 'Anthropic',
    publicHost: 'api.anthropic.com',
    defaultBaseURL: 'https://api.anthropic.com',
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    modelEnv: 'ANTHROPIC_MODEL',
    defaultModel: 'claude-opus-5',
  },
  openai: {
    label: 'OpenAI',
    publicHost: 'api.openai.com',
    defaultBaseURL: 'https://api.openai.com/v1',
    baseUrlEnv: 'OPENAI_BASE_URL',
    apiKeyEnv: 'OPENAI_API_KEY',
    modelEnv: 'OPENAI_MODEL',
    defaultModel: 'gpt-4.1-mini',
  },
};
