// Import rules for src/, bench/ and test/ (DESIGN.md §2), checked by `npm run lint` after Biome:
// no import cycles, layers import down only, the example agents use the public API, and no
// shipped module imports test code.
const { readFileSync } = require('node:fs');

/** Layers, top to bottom. A layer imports its own and the ones below it, never the ones above. */
const LAYERS = [
  { name: 'cli', folders: ['cli', 'init'] },
  // trace-report (npm run trace) reads runtime traces, as eval reads trial records.
  { name: 'eval', folders: ['eval', 'trace-report'] },
  { name: 'adapters', folders: ['adapters'] },
  { name: 'replay', folders: ['replay'] },
  { name: 'simulator', folders: ['simulator'] },
  { name: 'runtime', folders: ['runtime'] },
  { name: 'model-api', folders: ['model-api'] },
  { name: 'core', folders: ['core'] },
];

/**
 * Floors inside src/eval, top to bottom (issue 35): a folder imports only the folders below it,
 * never one above, and never the top-level files (`define-task.ts`, the vitest expansion, which
 * imports them all). spec/ is data and schemas only; transcript/ decodes each API's
 * conversation; stats/ is the numbers.
 */
const EVAL_FLOORS = [
  'run',
  'shard',
  'base',
  'verify',
  'task',
  'report',
  'grade',
  'trial',
  'transcript',
  'spec',
  'stats',
];

function evalFloorRule(folder, index) {
  const above = EVAL_FLOORS.slice(0, index);
  return {
    name: `eval-${folder}-imports-down-only`,
    comment: `src/eval/${folder} imports only ${EVAL_FLOORS.slice(index + 1).join(', ') || 'itself'} inside src/eval: never ${above.join(', ') || '(none above)'} or src/eval/*.ts`,
    severity: 'error',
    from: { path: `^src/eval/${folder}/`, pathNot: TEST },
    to: { path: `^src/eval/(${above.length > 0 ? `${above.join('|')}/|` : ''}[^/]+\\.ts$)` },
  };
}

/**
 * The cycles main still has, each excluded as exactly its pair: any other cycle through these
 * files still fails. Drop an entry once its cycle is gone.
 */
const KNOWN_CYCLES = [];

/**
 * Tests and test support. The layer rules are for the code that runs: a test may drive its
 * layer through the ones above it (a runtime test against the simulator over HTTP). Tests
 * still may not import in a circle.
 */
const TEST = '(\\.test\\.ts$|/testing/)';
const EXAMPLES = '^src/(refund-desk|debug-agent)/';
/** Not in the package: the examples, their entry, the bench and the e2e test. */
const NOT_SHIPPED = `${EXAMPLES}|^src/reference-agents\\.ts$|^(bench|test)/`;

/** The package's public API: its package.json exports, as source files. */
const PUBLIC_API = (() => {
  const pkg = JSON.parse(readFileSync(`${__dirname}/package.json`, 'utf8'));
  const sources = Object.values(pkg.exports)
    .filter((entry) => typeof entry === 'object')
    .map((entry) => entry.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
  return `^(${sources.map(escapeDots).join('|')})$`;
})();

function escapeDots(text) {
  return text.replaceAll('.', '\\.');
}

const folders = (layers) => layers.flatMap((layer) => layer.folders).join('|');

function layerRule(layer, index) {
  const above = LAYERS.slice(0, index);
  const below = LAYERS.slice(index + 1);
  return {
    name:
      layer.name === 'core' ? 'core-imports-nothing-of-ours' : `${layer.name}-imports-down-only`,
    comment: `${layer.name} imports only ${folders(below) || 'itself'}: never ${folders(above)}, the entries (src/*.ts) or what is not shipped`,
    severity: 'error',
    from: { path: `^src/(${layer.folders.join('|')})/`, pathNot: TEST },
    to: { path: `^src/(${folders(above)})/|^src/[^/]+\\.ts$|${NOT_SHIPPED}` },
  };
}

function knownCycleRule(cycle) {
  const pair = `^src/(${cycle.files.map(escapeDots).join('|')})\\.ts$`;
  return {
    name: `no-circular-but-${cycle.files.map((file) => file.split('/').at(-1)).join('-')}`,
    comment: `${cycle.files.join(' ⇄ ')} is the one cycle allowed through these files: ${cycle.removedBy} removes it`,
    severity: 'error',
    from: { path: pair },
    to: { circular: true, via: { pathNot: pair } },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles in src/, bench/ or test/ (type-only imports count)',
      severity: 'error',
      from: {
        path: '^(src|bench|test)/',
        pathNot: `^src/(${KNOWN_CYCLES.flatMap((cycle) => cycle.files.map(escapeDots)).join('|')})\\.ts$`,
      },
      to: { circular: true },
    },
    ...KNOWN_CYCLES.map(knownCycleRule),
    // The top layer (cli) has no layer rule: it may import every layer below it.
    ...LAYERS.slice(1).map((layer, index) => layerRule(layer, index + 1)),
    ...EVAL_FLOORS.map(evalFloorRule),
    {
      name: 'eval-has-no-other-folders',
      comment: `every folder of src/eval is one of its floors (${EVAL_FLOORS.join(', ')}) or testing/`,
      severity: 'error',
      from: { path: '^src/eval/' },
      to: { path: `^src/eval/[^/]+/`, pathNot: `^src/eval/(${EVAL_FLOORS.join('|')}|testing)/` },
    },
    {
      name: 'cli-imports-nothing-unshipped',
      comment:
        'The CLI ships in the package, the example agents do not (npm run agent, which runs the refund desk, lives in refund-desk/cli/)',
      severity: 'error',
      from: { path: '^src/(cli|init)/', pathNot: TEST },
      to: { path: NOT_SHIPPED },
    },
    {
      name: 'entries-import-nothing-unshipped',
      comment: 'The public entries are the package: no example, bench or CLI in them',
      severity: 'error',
      from: { path: '^src/(index|report)\\.ts$' },
      to: { path: `${NOT_SHIPPED}|^src/(cli|init)/` },
    },
    {
      name: 'examples-use-the-public-api',
      comment: `The example agents import their own folder and the public API (${PUBLIC_API}) only`,
      severity: 'error',
      // refund-desk/cli/ is not an example of the API: it is `npm run agent`, this repository's
      // tool for running the refund desk by hand (journals, resume, approvals on a terminal).
      from: { path: EXAMPLES, pathNot: `${TEST}|^src/refund-desk/cli/` },
      to: { path: '^src/', pathNot: `^src/$1/|${PUBLIC_API}` },
    },
    {
      name: 'otel-export-loads-only-when-asked',
      comment:
        'The OpenTelemetry export (src/eval/report/otel, which loads the @opentelemetry packages) is imported with import() or for its types only, outside itself: a run without --otel never loads it',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/eval/report/otel/|${TEST}` },
      to: { path: '^src/eval/report/otel/', dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'src-imports-no-bench-or-e2e',
      comment: 'src/ is the package: nothing in it (its tests included) imports bench/ or test/',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(bench|test)/' },
    },
    {
      name: 'shipped-code-imports-no-test-code',
      comment: 'Test doubles stay out of the package: only tests and testing/ import them',
      severity: 'error',
      from: { path: '^src/', pathNot: TEST },
      to: { path: TEST },
    },
  ],
  options: {
    includeOnly: '^(src|bench|test)/',
    // The debug agent's sample project is data its tests copy, not our code.
    exclude: { path: '^src/debug-agent/sandbox-project/' },
    doNotFollow: { path: 'node_modules' },
    // TypeScript 7 has no JavaScript API to parse with: swc parses (it keeps type-only imports).
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.mts', '.js', '.mjs'],
      conditionNames: ['import', 'types', 'default'],
    },
  },
};
