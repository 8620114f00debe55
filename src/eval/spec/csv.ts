import type { ConfigError } from '../../core/errors.js';

/**
 * RFC 4180 CSV as case rows: the header names the fields (`id`, `input`, `expected`, and
 * `expected.NAME` for an expected object; any other column is metadata), quoted fields may hold
 * commas, quotes ("") and line breaks. `lines` is each row's first line in the file.
 */
export function parseCsv(
  text: string,
  fail: (why: string) => ConfigError,
): { rows: Array<Record<string, unknown>>; lines: number[] } {
  const records = csvRecords(text.replace(/^\uFEFF/, ''), fail);
  const [header, ...body] = records;
  if (!header || header.fields.length === 0 || header.fields.every((field) => field === '')) {
    throw fail('has no header row (id,input,expected,...)');
  }
  const names = header.fields.map((field) => field.trim());
  const rows = body.map(({ fields, line }) => {
    if (fields.length !== names.length) {
      throw fail(`line ${line} has ${fields.length} fields, the header ${names.length}`);
    }
    const row: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    names.forEach((name, index) => {
      const value = fields[index] ?? '';
      if (name.startsWith('expected.')) expected[name.slice('expected.'.length)] = value;
      else if (name !== '') row[name] = value;
    });
    if (Object.keys(expected).length > 0) row.expected = expected;
    return row;
  });
  return { rows, lines: body.map(({ line }) => line) };
}

/** The records of a CSV text, each with the line it starts on; blank lines are skipped. */
function csvRecords(text: string, fail: (why: string) => ConfigError) {
  const records: Array<{ fields: string[]; line: number }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '')) records.push({ fields, line: start });
    fields = [];
    field = '';
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line += 1;
        field += char;
      }
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      endRecord();
      line += 1;
      start = line;
    } else field += char;
  }
  if (quoted) throw fail(`a quoted field opened on line ${start} is never closed`);
  endRecord();
  return records;
}
