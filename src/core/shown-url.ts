/**
 * A URL as harness-evals prints or stores it: scheme, host and path. Its userinfo, query and
 * fragment may carry a credential (`http://tok_live_...@host`, `?api_key=`, `#token`), in any
 * encoding, so each is replaced by `[redacted]` whatever it holds.
 *
 * @example shownUrl('https://u:p@gw.test/v1?api_key=k#t') // 'https://[redacted]@gw.test/v1?[redacted]#[redacted]'
 */
export function shownUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(not a URL)';
  }
  const user = parsed.username || parsed.password ? '[redacted]@' : '';
  const path = parsed.pathname.replace(/\/+$/, '');
  const query = parsed.search ? '?[redacted]' : '';
  const fragment = parsed.hash ? '#[redacted]' : '';
  return `${parsed.protocol}//${user}${parsed.host}${path}${query}${fragment}`;
}

/**
 * The parts of a URL that may be a credential, as they appear in it and decoded: the userinfo
 * (a user-token without a password too), every query value and the fragment. For masking the
 * exact values of a configured URL wherever they are quoted.
 */
export function secretPartsOf(url: string | undefined): string[] {
  if (!url) return [];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const raw = [
    parsed.password,
    parsed.password ? '' : parsed.username,
    ...parsed.search
      .slice(1)
      .split('&')
      .map((pair) => pair.slice(pair.indexOf('=') + 1)),
    parsed.hash.slice(1),
    ...parsed.hash
      .slice(1)
      .split('&')
      .map((pair) => pair.slice(pair.indexOf('=') + 1)),
  ].filter(Boolean);
  return [...new Set(raw.flatMap((part) => [part, decoded(part)]))];
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/** `scheme://userinfo@`: a user-token or a password, percent-encoded or not. */
const USERINFO = /\b([a-z][a-z\d+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

/** Every URL's userinfo in a text replaced by `[redacted]`: what redactText does for URLs it meets. */
export function maskUserinfoIn(text: string): string {
  return text.includes('@') ? text.replace(USERINFO, '$1[redacted]@') : text;
}
