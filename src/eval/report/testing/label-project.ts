import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCassette } from '../../../replay/cassette-file.js';
import { cassetteHash } from '../../../replay/cassette-hash.js';
import { judgmentOf } from '../../spec/judgment.js';
import { trialTranscript } from '../../transcript/transcript-formats.js';
import { buildReport } from '../build-report.js';
import { renderHtml } from '../html.js';
import { makeRecord } from './records.js';

// Not browser.ts's: that one loads playwright-core, which a unit test in a shared worker must not.
const projectRoot = fileURLToPath(new URL('../../../..', import.meta.url));

export const LABELS_FILE = 'evals/labels/t7-polite-refusal.json';
export const CHECK = 'polite-refusal';

/** The judge's verdict per trial: upgraded passes but on trial 5, baseline always fails. */
export const JUDGE_PASSES = (variant: string, trial: number) =>
  variant === 'upgraded' && trial !== 5;

/** A stale label: keyed to a cassette the trial does not replay. */
export const OLD_HASH = `sha256:${'0'.repeat(64)}`;

export interface LabelProject {
  dir: string;
  html: string;
  json: string;
  labels: string;
  /** The cassette hash of each trial, by `<variant>/<trial>`. */
  hashes: Map<string, string>;
}

/**
 * A project folder holding the report of T7's ten committed trials (baseline and upgraded,
 * five each) with a judged check whose judge reads LABELS_FILE, which starts with one stale
 * label (upgraded trial 1, keyed to OLD_HASH).
 */
export async function writeLabelProject(dir: string): Promise<LabelProject> {
  const hashes = new Map<string, string>();
  const trials = [];
  for (const variant of ['baseline', 'upgraded']) {
    for (let trial = 1; trial <= 5; trial++) {
      const cassette = await readCassette(
        join(projectRoot, 'fixtures/T7', variant, `trial-${trial}.json`),
      );
      const hash = cassetteHash(cassette);
      hashes.set(`${variant}/${trial}`, hash);
      const pass = JUDGE_PASSES(variant, trial);
      const judgment = judgmentOf(
        {
          check: CHECK,
          threshold: 0.5,
          models: ['claude-sonnet-5'],
          calls: 'replayed',
          source: 'simulator',
          labels: LABELS_FILE,
        },
        [
          {
            model: 'claude-sonnet-5',
            sample: 1,
            label: pass ? 'pass' : 'fail',
            score: pass ? 0.9 : 0.2,
            reasoning: pass ? 'declines politely' : 'claims it resubmitted',
          },
        ],
      );
      const record = makeRecord({
        task: 'T7',
        title: 'polite refusal',
        variant,
        trial,
        outcome: variant === 'upgraded' ? 'passed' : 'failed',
        cassetteHash: hash,
        judgments: [judgment],
      });
      trials.push({ record, transcript: trialTranscript(cassette, []) });
    }
  }
  const report = buildReport({
    records: trials.map((trial) => trial.record),
    trials: 5,
    floors: [],
    generatedAt: '2026-12-07T00:00:00.000Z',
  });
  mkdirSync(join(dir, 'reports'), { recursive: true });
  mkdirSync(join(dir, 'evals/labels'), { recursive: true });
  const html = join(dir, 'reports/latest.html');
  const json = join(dir, 'reports/latest.json');
  writeFileSync(html, renderHtml(report, trials));
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  const labels = join(dir, LABELS_FILE);
  const stale = { variant: 'upgraded', trial: 1, label: 'fail', cassette: OLD_HASH };
  writeFileSync(labels, `${JSON.stringify({ judge: CHECK, by: 'tests', labels: [stale] })}\n`);
  return { dir, html, json, labels, hashes };
}
