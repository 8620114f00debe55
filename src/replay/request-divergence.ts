import { COMPARED_REQUEST_HEADERS, type TapedRequest } from './cassette.js';
import { type Divergence, findDivergence, type Normaliser } from './divergence.js';

/** A divergence plus the part of the request it is in: `method`, `path`, `header <name>` or `body`. */
export interface RequestDivergence extends Divergence {
  part: string;
}

/**
 * The first difference between a recorded and a live request: method, path, the
 * compared headers (anthropic-version, anthropic-beta), then the normalised body.
 */
export function findRequestDivergence(
  recorded: TapedRequest,
  live: TapedRequest,
  normalisers: readonly Normaliser[] = [],
): RequestDivergence | undefined {
  if (recorded.method !== live.method) {
    return { part: 'method', pointer: '', recorded: recorded.method, live: live.method };
  }
  if (recorded.path !== live.path) {
    return { part: 'path', pointer: '', recorded: recorded.path, live: live.path };
  }
  for (const name of COMPARED_REQUEST_HEADERS) {
    if (recorded.headers[name] !== live.headers[name]) {
      return {
        part: `header ${name}`,
        pointer: '',
        recorded: recorded.headers[name],
        live: live.headers[name],
      };
    }
  }
  const body = findDivergence(recorded.body, live.body, { normalisers });
  return body && { part: 'body', ...body };
}
