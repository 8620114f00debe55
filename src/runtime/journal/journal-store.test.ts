import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotRegularFileError } from '../../core/regular-file.js';
import { createFileJournalStore, createMemoryJournalStore } from './journal-store.js';
import type { JournalRecord, RunStarted } from './records.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journals-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const started = (runId = 'run-1'): RunStarted => ({
  type: 'run_started',
  runId,
  variant: 'desk',
  model: 'scripted',
  mode: 'interactive',
  prompt: 'Pay 6222020200112233445 428.00',
  system: 'system',
  seq: 1,
  at: '2026-10-01T09:00:00.000Z',
});

const answered: JournalRecord = {
  type: 'model_answered',
  step: 1,
  content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { order_id: 'ORD1' } }],
  usage: { input_tokens: 10, output_tokens: 2 },
  ms: 5,
  stopReason: 'tool_use',
  seq: 2,
  at: '2026-10-01T09:00:01.000Z',
};

const line = (record: unknown) => `${JSON.stringify(record)}\n`;
const file = () => join(dir, 'run-1.jsonl');

describe('createFileJournalStore', () => {
  it('creates a journal with its first record, readable by its owner only, and exact values', async () => {
    const journals = createFileJournalStore({ dir });
    const sink = await journals.create('run-1', started());
    await sink.append(answered);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    // Exact values: the journal is state, not a log (the card number stays whole).
    expect(readFileSync(file(), 'utf8')).toContain('6222020200112233445');
    const read = await journals.open('run-1');
    expect(read.view.step).toBe(1);
    expect(read.view.open?.calls).toEqual([
      { id: 'toolu_1', name: 'lookup', input: { order_id: 'ORD1' } },
    ]);
    expect(await journals.list()).toEqual(['run-1']);
  });

  it('keeps no credential on disk (a key shape a model or server echoed), only exact cards', async () => {
    const journals = createFileJournalStore({ dir });
    const sink = await journals.create('run-1', started());
    await sink.append({
      ...answered,
      content: [
        { type: 'text', text: 'key sk-ant-api03-ECHOECHOECHOECHOECHO, card 6222020200112233445' },
      ],
      stopReason: 'end_turn',
    } as JournalRecord);
    const text = readFileSync(file(), 'utf8');
    expect(text).not.toContain('ECHOECHO');
    expect(text).toContain('sk-ant-[redacted]');
    expect(text).toContain('card 6222020200112233445');
  });

  it('refuses a second journal under one run id, keeping the first', async () => {
    const journals = createFileJournalStore({ dir });
    await journals.create('run-1', started());
    await expect(journals.create('run-1', started())).rejects.toThrow(
      /run 'run-1' already has a journal .*run-1\.jsonl.*start the new run under another id/,
    );
    expect(readFileSync(file(), 'utf8')).toBe(line(started()));
  });

  it('names the journal it looked for and the runs it knows when a run id is unknown', async () => {
    const journals = createFileJournalStore({ dir });
    await journals.create('run-1', started());
    await expect(journals.open('run-2')).rejects.toMatchObject({
      code: 'journal_missing',
      message: expect.stringMatching(
        /no journal for run 'run-2' \(looked for .*run-2\.jsonl; known runs: run-1\)/,
      ),
    });
  });

  it('refuses run ids that are not file names', async () => {
    const journals = createFileJournalStore({ dir });
    for (const id of ['../escape', '.hidden', 'a/b', '']) {
      await expect(journals.create(id, started(id))).rejects.toThrow(/run id .* is invalid/);
    }
  });

  it('drops a torn last line (an append that never returned) and cuts it off at the next append', async () => {
    writeFileSync(file(), `${line(started())}${line(answered).slice(0, 40)}`);
    const journals = createFileJournalStore({ dir });
    const read = await journals.open('run-1');
    expect(read.records).toHaveLength(1);
    // Reading changes nothing (another process may hold the run).
    expect(readFileSync(file(), 'utf8')).toContain(line(answered).slice(0, 40));
    await read.sink.append(answered);
    expect(readFileSync(file(), 'utf8')).toBe(`${line(started())}${line(answered)}`);
  });

  it("reads a FIFO in the journal's place as an error, without blocking", async () => {
    execFileSync('mkfifo', [file()]);
    await expect(createFileJournalStore({ dir }).open('run-1')).rejects.toThrow(
      NotRegularFileError,
    );
  });
});

describe('a damaged or foreign journal', () => {
  const refused = async (text: string) => {
    const journals = createMemoryJournalStore();
    journals.texts.set('run-1', text);
    return journals.open('run-1').then(
      () => undefined,
      (error: Error & { code?: string }) => error,
    );
  };

  it.each([
    [
      'a line that is not JSON',
      `${line(started())}{"type":\n${line(answered)}`,
      /run-1\.jsonl:2: the run journal is damaged: the line is not JSON/,
    ],
    [
      'a record of no known type',
      `${line(started())}${line({ ...answered, type: 'guess' })}`,
      /:2: the run journal is damaged: type: /,
    ],
    [
      'a record missing a field',
      `${line(started())}${line({ ...answered, step: undefined })}`,
      /:2: .*step/,
    ],
    [
      'a line lost in the middle',
      `${line(started())}${line({ ...answered, seq: 3 })}`,
      /:2: .*seq 3 where 2 belongs/,
    ],
    [
      'a result for a call no answer asked for',
      `${line(started())}${line({ type: 'result', step: 4, index: 0, decision: 'allow', content: 'x', isError: false, ms: 0, seq: 2, at: 'now' })}`,
      /:2: .*no such call waiting/,
    ],
    ['an empty file', '', /holds no complete record/],
    [
      "another run's journal",
      line(started('run-9')),
      /it is the journal of run 'run-9', not of run 'run-1'/,
    ],
    [
      'a journal that does not start with run_started',
      line({ ...answered, seq: 1 }),
      /no run_started record/,
    ],
    [
      'a second answer for one step',
      `${line(started())}${line({ ...answered, stopReason: 'end_turn' })}${line({ ...answered, seq: 3 })}`,
      /:3: .*step 1 after step 1/,
    ],
    [
      'two tool calls under one id',
      `${line(started())}${line({ ...answered, content: [answered.type === 'model_answered' && answered.content[0], answered.type === 'model_answered' && answered.content[0]] })}`,
      /two tool calls under one id/,
    ],
  ])('refuses %s, naming the file, the line and the fix', async (_, text, message) => {
    const error = await refused(text);
    expect(error?.code).toBe('journal_corrupt');
    expect(error?.message).toMatch(message);
    expect(error?.message).toMatch(
      /restore the file from a backup|rename it back|delete it and start a new run/,
    );
  });

  it('keeps the text as it was', async () => {
    const journals = createMemoryJournalStore();
    const text = `${line(started())}{"type":\n`;
    journals.texts.set('run-1', `${text}${line(answered)}`);
    await expect(journals.open('run-1')).rejects.toThrow();
    expect(journals.texts.get('run-1')).toBe(`${text}${line(answered)}`);
  });
});

describe('createFileJournalStore: links and modes under runs/', () => {
  it('refuses to read or append through a journal file that is a symlink, leaving its target as it was', async () => {
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'not a journal\n');
    const journals = join(dir, 'journals');
    const store = createFileJournalStore({ dir: journals });
    const sink = await store.create('run-1', started());
    rmSync(join(journals, 'run-1.jsonl'));
    symlinkSync(outside, join(journals, 'run-1.jsonl'));
    await expect(sink.append(answered)).rejects.toThrow(/is a symlink/);
    await expect(store.open('run-1')).rejects.toThrow(
      /run-1\.jsonl is a symlink: .* does not read or write run files through links; remove it/,
    );
    expect(readFileSync(outside, 'utf8')).toBe('not a journal\n');
  });

  it('makes a world-writable journal folder private (0700) before it keeps a journal there', async () => {
    const journals = join(dir, 'journals');
    mkdirSync(journals, { mode: 0o777 });
    chmodSync(journals, 0o777);
    await createFileJournalStore({ dir: journals }).create('run-1', started());
    expect(statSync(journals).mode & 0o777).toBe(0o700);
  });
});

describe('createFileJournalStore: a file where the folder should be', () => {
  it('says so in one line, for a new run and for a resume', async () => {
    const notFolder = join(dir, 'journals.json');
    writeFileSync(notFolder, '{}');
    const store = createFileJournalStore({ dir: notFolder });
    const message = `the journals folder ${notFolder} is not a folder`;
    await expect(store.create('run-1', started())).rejects.toThrow(message);
    await expect(store.open('run-1')).rejects.toThrow(message);
  });
});
