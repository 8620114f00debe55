/**
 * Test support: GitHub Actions expressions, as much of them as the workflows use (`${{ ... }}`
 * in `if:` and `env:`): property paths (with `*` over arrays), string, number and boolean
 * literals, `==`, `!=`, `!`, `&&`, `||`, parentheses, and the functions always(), success(),
 * failure(), cancelled(), contains(), startsWith() and hashFiles() (true when a file exists).
 * Anything else throws, naming it: the emulator never guesses what a workflow meant.
 */
export interface ExpressionContext {
  values: Record<string, unknown>;
  /** The job's status so far: `failure` once a step failed that did not continue on error. */
  status: 'success' | 'failure';
  /** hashFiles(pattern): '' when no file matches, a non-empty string otherwise. */
  hashFiles: (pattern: string) => string;
}

type Token = { kind: 'op' | 'str' | 'num' | 'id'; text: string };

const TOKEN = /\s*(==|!=|&&|\|\||[!(),]|'(?:[^']|'')*'|-?\d+(?:\.\d+)?|[A-Za-z_][\w.*-]*)/y;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const match = TOKEN.exec(source);
    if (!match) throw new Error(`expression ${source}: cannot read at ${TOKEN.lastIndex}`);
    const text = match[1]!;
    const kind = text.startsWith("'")
      ? 'str'
      : /^-?\d/.test(text)
        ? 'num'
        : /^[A-Za-z_]/.test(text)
          ? 'id'
          : 'op';
    tokens.push({ kind, text });
  }
  return tokens;
}

/** Evaluate one expression (without its `${{ }}`). */
export function evaluate(source: string, context: ExpressionContext): unknown {
  const tokens = tokenize(source);
  let at = 0;
  const peek = () => tokens[at]?.text;
  const take = (expected?: string) => {
    const token = tokens[at++];
    if (!token || (expected && token.text !== expected))
      throw new Error(`expression ${source}: expected ${expected ?? 'more'}`);
    return token;
  };
  const or = (): unknown => {
    let left = and();
    while (peek() === '||') {
      take();
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const and = (): unknown => {
    let left = equality();
    while (peek() === '&&') {
      take();
      const right = equality();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const equality = (): unknown => {
    const left = unary();
    const op = peek();
    if (op !== '==' && op !== '!=') return left;
    take();
    const same = String(left ?? '') === String(unary() ?? '');
    return op === '==' ? same : !same;
  };
  const unary = (): unknown => {
    if (peek() === '!') {
      take();
      return !truthy(unary());
    }
    return primary();
  };
  const primary = (): unknown => {
    const token = take();
    if (token.text === '(') {
      const value = or();
      take(')');
      return value;
    }
    if (token.kind === 'str') return token.text.slice(1, -1).replaceAll("''", "'");
    if (token.kind === 'num') return Number(token.text);
    if (token.kind !== 'id') throw new Error(`expression ${source}: unexpected ${token.text}`);
    if (token.text === 'true' || token.text === 'false') return token.text === 'true';
    if (peek() !== '(') return lookup(context.values, token.text);
    take('(');
    const args: unknown[] = [];
    while (peek() !== ')') {
      args.push(or());
      if (peek() === ',') take(',');
    }
    take(')');
    return call(token.text, args, context, source);
  };
  const value = or();
  if (at !== tokens.length) throw new Error(`expression ${source}: unexpected ${peek()}`);
  return value;
}

function call(name: string, args: unknown[], context: ExpressionContext, source: string) {
  switch (name) {
    case 'always':
      return true;
    case 'cancelled':
      return false;
    case 'success':
      return context.status === 'success';
    case 'failure':
      return context.status === 'failure';
    case 'contains':
      return Array.isArray(args[0])
        ? args[0].map(String).includes(String(args[1]))
        : String(args[0] ?? '').includes(String(args[1]));
    case 'startsWith':
      return String(args[0] ?? '').startsWith(String(args[1]));
    case 'hashFiles':
      return context.hashFiles(String(args[0]));
    default:
      throw new Error(`expression ${source}: the emulator does not know ${name}()`);
  }
}

/** `github.event.pull_request.labels.*.name`: a path, `*` mapping over an array. */
function lookup(values: Record<string, unknown>, path: string): unknown {
  let current: unknown = values;
  const parts = path.split('.');
  for (const [index, part] of parts.entries()) {
    if (part === '*') {
      const rest = parts.slice(index + 1).join('.');
      const items = Array.isArray(current) ? current : [];
      return rest ? items.map((item) => lookup({ item }, `item.${rest}`)) : items;
    }
    current = (current as Record<string, unknown> | undefined)?.[part];
  }
  return current;
}

export function truthy(value: unknown): boolean {
  return !(value === false || value === 0 || value === '' || value === null || value === undefined);
}

/** Replace each `${{ ... }}` in a string by its value. */
export function interpolate(text: string, context: ExpressionContext): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, body: string) => {
    const value = evaluate(body, context);
    return value === undefined || value === null ? '' : String(value);
  });
}

/**
 * An `if:`, with or without `${{ }}`. As GitHub does, one that calls no status function
 * (success, failure, always, cancelled) runs only while the job succeeds; none is success().
 */
export function condition(text: string | undefined, context: ExpressionContext): boolean {
  if (text === undefined) return context.status === 'success';
  const body = /^\s*\$\{\{(.*)\}\}\s*$/s.exec(text)?.[1] ?? text;
  const statusChecked = /\b(success|failure|always|cancelled)\s*\(/.test(body);
  if (!statusChecked && context.status !== 'success') return false;
  return truthy(evaluate(body, context));
}
