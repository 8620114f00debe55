import type { Anthropic } from '@anthropic-ai/sdk';

/** The Messages API's error body. */
export interface ApiErrorBody {
  type: 'error';
  error: { type: Anthropic.ErrorType | (string & {}); message: string };
}

const TYPE_BY_STATUS: Record<number, Anthropic.ErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

const MESSAGE_BY_TYPE: Record<string, string> = {
  rate_limit_error: 'Number of requests has exceeded your rate limit (simulated fault).',
  overloaded_error: 'Overloaded (simulated fault).',
  api_error: 'Internal server error (simulated fault).',
  timeout_error: 'Request timed out (simulated fault).',
};

export function errorTypeFor(status: number): string {
  return TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

export function apiErrorBody(type: string, message?: string): ApiErrorBody {
  return {
    type: 'error',
    error: { type, message: message ?? MESSAGE_BY_TYPE[type] ?? `Simulated ${type}.` },
  };
}
