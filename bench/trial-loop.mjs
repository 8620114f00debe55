// The replayed trials of `npm run eval -- --task T2 --variant upgraded --trials N`, without
// vitest: the same runTrial (cassette, SDK, agent loop, tools, trace) in a plain loop, 8 at a
// time like the evals' `maxConcurrency`, in a fresh node process that loads the bench
// project's dist/ natively, as the eval worker does. What vitest adds is the difference.
//
// usage: node trial-loop.mjs <bench project> <trials>
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [projectArg, trialsArg] = process.argv.slice(2);
const trials = Number(trialsArg);
if (!projectArg || !Number.isInteger(trials) || trials < 1) {
  throw new Error(
    'usage: node trial-loop.mjs <bench project> <trials (a whole number, at least 1)>',
  );
}
const projectDir = resolve(projectArg);
const dist = join(projectDir, 'dist');
// The trial runner and the eval settings moved in 27acba5 (a build from before it, a
// --baseline-ref, has them at the top of dist/eval/), and the settings again to eval/spec/.
const LAYOUTS = [
  {
    since: 'since eval/spec/',
    runner: 'eval/trial/trial-runner.js',
    settings: 'eval/spec/settings.js',
  },
  {
    since: 'since 27acba5',
    runner: 'eval/trial/trial-runner.js',
    settings: 'eval/run/settings.js',
  },
  { since: 'before 27acba5', runner: 'eval/trial-runner.js', settings: 'eval/settings.js' },
];
const layout = LAYOUTS.find(
  (candidate) =>
    existsSync(join(dist, candidate.runner)) && existsSync(join(dist, candidate.settings)),
);
const entries = ['index.js', 'reference-agents.js'].filter((file) => !existsSync(join(dist, file)));
if (!layout || entries.length > 0) {
  const missing = [
    ...entries.map((file) => `dist/${file}`),
    ...(layout
      ? []
      : LAYOUTS.map(
          (candidate) =>
            `${[candidate.runner, candidate.settings]
              .filter((file) => !existsSync(join(dist, file)))
              .map((file) => `dist/${file}`)
              .join(' and ')} (the layout ${candidate.since})`,
        )),
  ];
  process.stderr.write(
    `trial-loop.mjs: ${projectDir} has no build the loop can run: no ${missing.join('; no ')}. Build it (npm run build) in the checkout the bench project links to.\n`,
  );
  process.exit(2);
}
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const [{ runTrial }, { readEvalSettings }, { defineAgent }, agents] = await Promise.all([
  load(layout.runner),
  load(layout.settings),
  load('index.js'),
  load('reference-agents.js'),
]);

const agent = defineAgent({
  suite: 'refund-desk',
  variants: agents.REFUND_DESK_VARIANTS,
  mode: 'unattended',
  createHarness: (variant, options) =>
    agents.createRefundDeskHarness(variant, {
      projectDir: options.projectDir,
      instructionFiles: ['AGENTS.md'],
    }),
});
// The task's prompt as recorded: a prompt that drifted from the eval file fails every trial.
const recorded = JSON.parse(
  readFileSync(join(projectDir, 'fixtures/T2/upgraded/trial-1.json'), 'utf8'),
);
const prompt = recorded.exchanges[0].request.body.messages[0].content;
const task = { agent, id: 'T2', title: 'Order not found', prompt, check: () => {} };
const settings = readEvalSettings({
  HARNESS_EVAL_ROOT: projectDir,
  HARNESS_EVAL_TRIALS: String(trials),
});

let next = 1;
const failed = [];
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (next <= trials) {
      const trial = next++;
      const outcome = await runTrial({ task, variant: 'upgraded', trial, settings });
      if (outcome.record.outcome !== 'passed' || outcome.run?.status !== 'done') {
        failed.push(
          `trial ${trial}: ${outcome.record.outcome} ${outcome.record.messages.join('; ')}`,
        );
      }
    }
  }),
);
if (failed.length > 0) {
  process.stderr.write(
    `${failed.length} of ${trials} trials did not replay:\n${failed.slice(0, 5).join('\n')}\n`,
  );
  process.exitCode = 1;
}
