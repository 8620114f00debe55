import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileJournalStore, createMemoryJournalStore } from '../journal/journal-store.js';

export type StoreKind = 'memory' | 'file';

/** A store of this kind holding `text` as the run's journal, and its text read back; `dirs` collects folders to remove. */
export function storeHolding(kind: StoreKind, runId: string, text: string, dirs: string[]) {
  if (kind === 'memory') {
    const journals = createMemoryJournalStore();
    journals.texts.set(runId, text);
    return { journals, text: () => journals.texts.get(runId)! };
  }
  const dir = mkdtempSync(join(tmpdir(), 'cut-journal-'));
  dirs.push(dir);
  writeFileSync(join(dir, `${runId}.jsonl`), text, { mode: 0o600 });
  const journals = createFileJournalStore({ dir });
  return { journals, text: () => readFileSync(join(dir, `${runId}.jsonl`), 'utf8') };
}
