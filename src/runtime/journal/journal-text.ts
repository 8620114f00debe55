import { maskCredentialsOnly } from '../../core/redact.js';
import { checkRecord, JournalError, type JournalRecord } from './records.js';
import { foldJournal, type RunView } from './run-view.js';

/** A journal's text, read back: its view, and the bytes of a torn last line to cut off. */
export interface ReadJournal {
  records: JournalRecord[];
  view: RunView;
  /** The text up to the last newline: what follows is an append that never returned, dropped. */
  intact: string;
}

/**
 * Reads a run's journal. Every line must be a record of the format, in seq order, following
 * from the ones before it, of this run: anything else is damage, refused with the line and the
 * fix. The one exception is a last line without its newline: an append that never returned
 * (the process died mid-write), so nothing came of it; it is dropped.
 */
export function readJournalText(text: string, source: string, runId: string): ReadJournal {
  const intact = text.slice(0, text.lastIndexOf('\n') + 1);
  const lines = intact.split('\n').slice(0, -1);
  if (lines.length === 0) {
    throw damaged(
      source,
      'it holds no complete record (the run never started)',
      'delete it and start a new run',
    );
  }
  const records = lines.map((line, index) => lineRecord(line, index + 1, source));
  const first = records[0]!;
  if (first.type !== 'run_started' || first.runId !== runId) {
    const whose = first.type === 'run_started' ? `run '${first.runId}'` : 'no run_started record';
    throw damaged(
      source,
      `it is the journal of ${whose}, not of run '${runId}' (renamed or copied?)`,
      'rename it back, or start a new run',
    );
  }
  const folded = foldJournal(records);
  if ('problem' in folded) {
    throw damaged(`${source}:${folded.seq}`, folded.problem, RESTORE);
  }
  return { records, view: folded.view, intact };
}

const RESTORE = 'restore the file from a backup, or start a new run (the run was not restarted)';

function lineRecord(line: string, number: number, source: string): JournalRecord {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch {
    throw damaged(`${source}:${number}`, 'the line is not JSON', RESTORE);
  }
  const checked = checkRecord(data);
  if (!checked.ok) throw damaged(`${source}:${number}`, checked.problem, RESTORE);
  if (checked.record.seq !== number) {
    throw damaged(
      `${source}:${number}`,
      `seq ${checked.record.seq} where ${number} belongs (lines lost or moved)`,
      RESTORE,
    );
  }
  return checked.record;
}

function damaged(where: string, problem: string, fix: string): JournalError {
  return new JournalError(
    'journal_corrupt',
    `${where}: the run journal is damaged: ${problem}; ${fix}`,
  );
}

/**
 * One record as one line of the journal: exact values (card numbers included: a resumed payout
 * must go to the account the model named), but for credentials (this process's configured
 * keys, and credential-shaped strings), which never reach the disk. A call whose arguments held
 * one cannot be resumed exactly, so the pipeline refuses it (`holdsMaskedSecret`).
 */
export const journalLine = (record: JournalRecord) =>
  `${JSON.stringify(record, (_key, value: unknown) => (typeof value === 'string' ? maskCredentialsOnly(value) : value))}\n`;
