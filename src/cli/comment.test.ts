import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReport } from '../eval/report/build-report.js';
import { htmlReportNote } from '../eval/report/markdown.js';
import { PR_COMMENT_MARKER } from '../eval/report/pr-comment.js';
import { makeRecord } from '../eval/report/testing/records.js';
import { runCommentCli } from './comment.js';
import { captureCli } from './testing/cli.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function reportFile(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'comment-cli-'));
  made.push(dir);
  const file = join(dir, 'latest.json');
  const report = buildReport({
    records: [makeRecord()],
    trials: 1,
    floors: [],
    generatedAt: 'now',
  });
  writeFileSync(file, JSON.stringify(report));
  return { dir, file };
}

describe('harness-evals comment', () => {
  it('writes the comment for a report to --out, linking the artifact and the run', async () => {
    const { dir, file } = reportFile();
    const out = join(dir, 'comment.md');
    const { code } = await captureCli(() =>
      runCommentCli([
        '--report',
        file,
        '--artifact-url',
        'https://github.com/o/r/actions/runs/1/artifacts/2',
        '--out',
        out,
      ]),
    );
    expect(code).toBe(0);
    const body = readFileSync(out, 'utf8');
    expect(body.split('\n')[0]).toBe(PR_COMMENT_MARKER);
    expect(body).toContain('(https://github.com/o/r/actions/runs/1/artifacts/2)');
  });

  it('refuses a URL that is not https, a missing report, and a file that is no report, in one line', async () => {
    const { dir, file } = reportFile();
    for (const [args, message] of [
      [
        ['--report', file, '--artifact-url', 'javascript:alert(1)'],
        /^comment: --artifact-url "javascript:alert\(1\)" is not an https URL$/,
      ],
      [
        ['--report', join(dir, 'none.json')],
        /^comment: .*none\.json cannot be read \(.*\): run npm run eval first/,
      ],
      [['--report', file, '--run-url', ''], /^comment: --run-url/],
    ] as const) {
      const { code, stderr } = await captureCli(() => runCommentCli([...args]));
      expect([args, code]).toEqual([args, 2]);
      expect(stderr.trim()).toMatch(message);
    }
    writeFileSync(file, '{"schemaVersion": 3}');
    const invalid = await captureCli(() => runCommentCli(['--report', file]));
    expect(invalid.code).toBe(2);
  });
});

describe('htmlReportNote', () => {
  it('names the artifact the workflow uploads the report in, and nothing that is no artifact name', () => {
    expect(htmlReportNote('eval-report-node-22')).toBe(
      'Transcripts of every trial: `reports/latest.html` (open it with `npm run view`; in this CI run, the `eval-report-node-22` artifact).',
    );
    expect(htmlReportNote(undefined)).toBe(
      'Transcripts of every trial: `reports/latest.html` (open it with `npm run view`).',
    );
    expect(htmlReportNote('x`](https://evil.test)')).not.toContain('evil');
  });

  it('puts a failed step first, with the lines that say why, and comments with no report at all', async () => {
    const { dir, file } = reportFile();
    const log = join(dir, 'verify.log');
    writeFileSync(
      log,
      [
        '\u001b[1m> harness-evals record --verify\u001b[0m',
        '✗ fixtures/H1/upgraded/trial-2.json (simulator)',
        '    exchange 2: the response differs from what @org/team derives',
        '12 cassettes checked (…): 1 does not match',
        'Re-record with:',
        '  npm run record -- --task H1 --variant upgraded --trial 2 --simulated',
      ].join('\n'),
    );
    const out = join(dir, 'comment.md');
    const steps = ['--step', `record --verify=failure:${log}`, '--step', 'eval gate=success'];
    const withReport = await captureCli(() =>
      runCommentCli(['--report', file, '--out', out, ...steps]),
    );
    expect(withReport.code).toBe(0);
    const body = readFileSync(out, 'utf8');
    expect(body.split('\n')[0]).toBe(PR_COMMENT_MARKER);
    expect(body.indexOf('❌ step `record --verify`: **failure**')).toBeLessThan(
      body.indexOf('## harness-evals:'),
    );
    expect(body).toContain('  ✗ fixtures/H1/upgraded/trial-2.json (simulator)');
    expect(body).toContain('npm run record -- --task H1 --variant upgraded --trial 2 --simulated');
    expect(body).not.toContain('@org/team');
    expect(body).not.toContain('\u001b[');
    expect(body).not.toContain('eval gate`');

    const missing = join(dir, 'none.json');
    const gateLog = join(dir, 'eval.log');
    writeFileSync(gateLog, 'eval: fixtures/H1 could not be read\n');
    const noReport = await captureCli(() =>
      runCommentCli(['--report', missing, '--out', out, '--step', `eval gate=failure:${gateLog}`]),
    );
    expect(noReport.code).toBe(0);
    const alone = readFileSync(out, 'utf8');
    expect(alone.startsWith(`${PR_COMMENT_MARKER}\n## harness-evals: ❌ no eval report`)).toBe(
      true,
    );
    expect(alone).toContain('❌ step `eval gate`: **failure**');
    expect(alone).toContain('eval: fixtures/H1 could not be read');
    // With every step green and no report, it is still the one-line error it was.
    const green = await captureCli(() =>
      runCommentCli(['--report', missing, '--step', 'eval gate=success']),
    );
    expect(green.code).toBe(2);
    expect(
      (await captureCli(() => runCommentCli(['--report', file, '--step', 'verify=maybe']))).stderr,
    ).toContain('is not NAME=OUTCOME[:LOG]');
  });

  it("keeps the end of a long failed step's output, where the gate's verdict is", async () => {
    const { dir, file } = reportFile();
    const log = join(dir, 'eval.log');
    const trials = Array.from({ length: 80 }, (_, index) => `  H1 trial ${index}: failed`);
    writeFileSync(log, [...trials, 'gate: FAILED (1 reason above)', '6 trials in 21 s'].join('\n'));
    const out = join(dir, 'comment.md');
    await captureCli(() =>
      runCommentCli(['--report', file, '--out', out, '--step', `eval gate=failure:${log}`]),
    );
    const body = readFileSync(out, 'utf8');
    expect(body).toContain('  gate: FAILED (1 reason above)');
    expect(body).toContain('  H1 trial 0: failed');
    expect(body).toContain('  …');
  });
});
