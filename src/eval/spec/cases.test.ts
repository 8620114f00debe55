import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectCases } from './case-selection.js';
import { type EvalCase, loadCases, MAX_CASES_FILE_BYTES } from './cases.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harness-evals-cases-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const file = async (name: string, text: string) => {
  await writeFile(join(root, name), text);
  return name;
};
const EXPECTED: EvalCase[] = [
  {
    id: 'q1',
    input: 'Where is ORD1001?',
    expected: { mentions: 'Overdue' },
    metadata: { topic: 'overdue' },
  },
  { id: 'q2', input: 'Hi, "quoted", and\nmore', expected: { mentions: 'bank' } },
];

describe('loadCases', () => {
  it('reads the same cases from inline data, JSONL, CSV, YAML and JSON', async () => {
    const jsonl = await file(
      'cases.jsonl',
      `{"id":"q1","input":"Where is ORD1001?","expected":{"mentions":"Overdue"},"metadata":{"topic":"overdue"}}\n\n{"id":"q2","input":"Hi, \\"quoted\\", and\\nmore","expected":{"mentions":"bank"}}\n`,
    );
    const csv = await file(
      'cases.csv',
      '\uFEFFid,input,expected.mentions,topic\r\nq1,Where is ORD1001?,Overdue,overdue\r\nq2,"Hi, ""quoted"", and\nmore",bank,\r\n',
    );
    const yaml = await file(
      'cases.yaml',
      'cases:\n  - id: q1\n    input: Where is ORD1001?\n    expected: { mentions: Overdue }\n    metadata: { topic: overdue }\n  - id: q2\n    input: "Hi, \\"quoted\\", and\\nmore"\n    expected: { mentions: bank }\n',
    );
    const json = await file('cases.json', JSON.stringify(EXPECTED));
    expect(loadCases(EXPECTED, root)).toEqual(EXPECTED);
    for (const name of [jsonl, yaml, json]) expect(loadCases(name, root)).toEqual(EXPECTED);
    // A CSV cell is text: an empty metadata column stays an empty string.
    expect(loadCases(csv, root)).toEqual([
      EXPECTED[0],
      { ...EXPECTED[1], metadata: { topic: '' } },
    ]);
    expect(loadCases(pathToFileURL(join(root, jsonl)), root)).toEqual(EXPECTED);
  });

  it('numbers cases without an id, and keeps any other field as metadata', () => {
    expect(loadCases([{ input: 'a' }, { input: 'b', lang: 'de' }] as never, root)).toEqual([
      { id: '1', input: 'a' },
      { id: '2', input: 'b', metadata: { lang: 'de' } },
    ]);
  });

  it('names the file, the line and the fix of a case it refuses', async () => {
    const cases: Array<[string, string, RegExp]> = [
      [
        'twice.jsonl',
        '{"id":"a","input":"x"}\n{"id":"A","input":"y"}\n',
        /twice\.jsonl line 2: id 'A' is the id of twice\.jsonl line 1 too/,
      ],
      ['broken.jsonl', '{"id":"a","input":"x"}\n\n{oops\n', /broken\.jsonl: line 3 is not JSON/],
      ['noinput.jsonl', '{"id":"a"}\n', /noinput\.jsonl line 1 \(id 'a'\) has no input/],
      [
        'badid.jsonl',
        '{"id":"../x","input":"y"}\n',
        /id '\.\.\/x' is invalid: use letters, digits/,
      ],
      ['short.csv', 'id,input\nq1\n', /short\.csv: line 2 has 1 fields, the header 2/],
      [
        'open.csv',
        'id,input\nq1,"never closed\n',
        /a quoted field opened on line 2 is never closed/,
      ],
      ['empty.jsonl', '\n', /the dataset has no cases/],
      ['cases.txt', 'x', /is not a \.jsonl, \.csv, \.yaml, \.yml or \.json file/],
      ['bad.yaml', 'cases: [1, 2', /bad\.yaml: not valid YAML/],
      ['nolist.json', '{"a":1}', /holds no list of cases/],
    ];
    for (const [name, text, message] of cases) {
      await file(name, text);
      expect(() => loadCases(name, root), name).toThrow(message);
    }
    expect(() => loadCases('nothing-here.jsonl', root)).toThrow(
      /cases file nothing-here\.jsonl cannot be read/,
    );
  });
});

describe('loadCases on a file too large to read', () => {
  it('refuses it from its size, before reading a byte: one line naming the file, its size, the limit and the fix', async () => {
    // A sparse 1 GB file: read whole, it would cost a gigabyte (and more than V8 can make a string of).
    await file('huge.jsonl', '');
    await truncate(join(root, 'huge.jsonl'), 1024 ** 3);
    const started = performance.now();
    expect(() => loadCases('huge.jsonl', root)).toThrow(
      /^cases file huge\.jsonl is 1024 MB, past the 64 MB a cases file may hold: split it into several files \(one task each\)/,
    );
    expect(performance.now() - started).toBeLessThan(500);
    expect(MAX_CASES_FILE_BYTES).toBe(64 * 1024 ** 2);
  });
});

describe('selectCases', () => {
  const cases = Array.from({ length: 20 }, (_, index) => ({ id: `q${index + 1}`, input: 'x' }));

  it('takes the cases --case names, case-blind, in dataset order', () => {
    expect(
      selectCases('T7', cases, { cases: ['Q3', 'q1'], caseSample: undefined }).map((c) => c.id),
    ).toEqual(['q1', 'q3']);
  });

  it('samples --cases N the same way whatever the order of the file, and never more than there are', () => {
    const sample = selectCases('T7', cases, { cases: [], caseSample: 5 }).map((c) => c.id);
    expect(sample).toHaveLength(5);
    const shuffled = [...cases].reverse();
    expect(
      selectCases('T7', shuffled, { cases: [], caseSample: 5 })
        .map((c) => c.id)
        .sort(),
    ).toEqual([...sample].sort());
    // Another task draws its own sample.
    expect(selectCases('T8', cases, { cases: [], caseSample: 5 }).map((c) => c.id)).not.toEqual(
      sample,
    );
    expect(selectCases('T7', cases, { cases: [], caseSample: 50 })).toHaveLength(20);
  });
});
