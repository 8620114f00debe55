/**
 * The HTTP status an error type inside a 200 stream stands for; undefined for an unknown type.
 * The Messages API's names, which OpenAI-compatible servers share where they coincide
 * (`invalid_request_error`, `rate_limit_error`, ...), so both APIs' stream errors count alike.
 */
export function statusOfErrorType(type: unknown): number | undefined {
  return typeof type === 'string' ? STATUS_OF_ERROR_TYPE[type] : undefined;
}

const STATUS_OF_ERROR_TYPE: Record<string, number | undefined> = {
  __proto__: null as never,
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};
