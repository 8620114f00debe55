/**
 * Edits package.json as text, so every byte init does not add stays as the user wrote it: big
 * integers, `\u00e9` escapes, indent, CRLF, key order, a byte order mark. A JSON round trip
 * would rewrite them all.
 */

interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

interface ObjectSpan {
  open: number;
  close: number;
  members: Member[];
}

const BOM = '\ufeff';

/** The text with `scripts` set (added, or replacing a value), or an error saying why it cannot be. */
export function setScriptsInText(
  text: string,
  scripts: ReadonlyArray<readonly [name: string, command: string]>,
): { text: string } | { error: string } {
  const bom = text.startsWith(BOM) ? BOM : '';
  const body = text.slice(bom.length);
  const scanner = new Scanner(body);
  const root = scanner.object(scanner.skipSpace(0));
  const found = root.members.filter((member) => member.key === 'scripts');
  if (found.length > 1) return { error: 'package.json has "scripts" twice' };
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const unit = indentUnit(body, root);
  const entry = ([name, command]: readonly [string, string]) =>
    `${JSON.stringify(name)}: ${JSON.stringify(command)}`;
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const existing = found[0];
  if (existing) {
    const object = scanner.object(existing.valueStart);
    const added: Array<readonly [string, string]> = [];
    for (const script of scripts) {
      const current = object.members.findLast((member) => member.key === script[0]);
      if (current)
        edits.push({
          start: current.valueStart,
          end: current.valueEnd,
          text: JSON.stringify(script[1]),
        });
      else added.push(script);
    }
    if (added.length > 0) edits.push(insertion(body, object, added.map(entry), eol, unit));
  } else {
    const value = (indent: string) =>
      `{${scripts.map((script) => `${eol}${indent}${unit}${entry(script)}`).join(',')}${eol}${indent}}`;
    const multiline = isMultiline(body, root);
    const member = `"scripts": ${multiline ? value(lineIndent(body, root.members[0]?.keyStart ?? root.close)) : `{${scripts.map(entry).join(', ')}}`}`;
    edits.push(insertion(body, root, [member], eol, unit));
  }
  let edited = body;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    edited = edited.slice(0, edit.start) + edit.text + edited.slice(edit.end);
  }
  return { text: bom + edited };
}

/** Members added after an object's last one (or into an empty one), in its layout. */
function insertion(
  body: string,
  object: ObjectSpan,
  members: readonly string[],
  eol: string,
  unit: string,
): { start: number; end: number; text: string } {
  const last = object.members.at(-1);
  if (!isMultiline(body, object)) {
    const joined = members.join(', ');
    return last
      ? { start: last.valueEnd, end: last.valueEnd, text: `, ${joined}` }
      : { start: object.open + 1, end: object.close, text: joined };
  }
  if (last) {
    const indent = lineIndent(body, last.keyStart);
    const text = members.map((member) => `,${eol}${indent}${member}`).join('');
    return { start: last.valueEnd, end: last.valueEnd, text };
  }
  const outer = lineIndent(body, object.open);
  const inner = members.map((member) => `${eol}${outer}${unit}${member}`).join(',');
  return { start: object.open + 1, end: object.close, text: `${inner}${eol}${outer}` };
}

/** An object laid out over lines: a line break before its first member (or in its braces). */
function isMultiline(body: string, object: ObjectSpan): boolean {
  const end = object.members[0]?.keyStart ?? object.close;
  return /[\r\n]/.test(body.slice(object.open, end));
}

/** The whitespace that starts the line holding `index`. */
function lineIndent(body: string, index: number): string {
  const lineStart = Math.max(body.lastIndexOf('\n', index - 1) + 1, 0);
  return /^[ \t]*/.exec(body.slice(lineStart, index))?.[0] ?? '';
}

/** One level of indent: the root's first member's, else two spaces. */
function indentUnit(body: string, root: ObjectSpan): string {
  const first = root.members[0];
  const indent = first && isMultiline(body, root) ? lineIndent(body, first.keyStart) : '';
  return indent === '' ? '  ' : indent;
}

/** Spans of a text JSON.parse has accepted: no error handling beyond that. */
class Scanner {
  constructor(private readonly text: string) {}

  skipSpace(index: number): number {
    let at = index;
    while (at < this.text.length && ' \t\r\n'.includes(this.text[at] ?? '')) at += 1;
    return at;
  }

  /** The index after the string starting at `index`. */
  string(index: number): number {
    let at = index + 1;
    while (this.text[at] !== '"') at += this.text[at] === '\\' ? 2 : 1;
    return at + 1;
  }

  /** The index after the value starting at `index`; nested values are counted, not recursed into. */
  value(index: number): number {
    const first = this.text[index];
    if (first === '"') return this.string(index);
    if (first !== '{' && first !== '[') {
      let at = index;
      while (at < this.text.length && !',}] \t\r\n'.includes(this.text[at] ?? '')) at += 1;
      return at;
    }
    let depth = 0;
    let at = index;
    do {
      const char = this.text[at];
      if (char === '"') {
        at = this.string(at);
        continue;
      }
      if (char === '{' || char === '[') depth += 1;
      else if (char === '}' || char === ']') depth -= 1;
      at += 1;
    } while (depth > 0);
    return at;
  }

  object(open: number): ObjectSpan {
    const members: Member[] = [];
    let at = this.skipSpace(open + 1);
    while (this.text[at] !== '}') {
      const keyStart = at;
      const keyEnd = this.string(keyStart);
      const valueStart = this.skipSpace(this.skipSpace(keyEnd) + 1);
      const valueEnd = this.value(valueStart);
      const key = JSON.parse(this.text.slice(keyStart, keyEnd)) as string;
      members.push({ key, keyStart, valueStart, valueEnd });
      at = this.skipSpace(valueEnd);
      if (this.text[at] === ',') at = this.skipSpace(at + 1);
    }
    return { open, close: at, members };
  }
}
