import type {
  CassetteProvenance,
  Changes,
  FixtureChange,
  InputChange,
} from '../spec/changes-schema.js';
import { formatRate } from './format.js';
import type { Comparison } from './report-schema.js';

/** What every renderer shows of the changes against the base, at the top of the report. */
export interface ChangesView {
  /** "Changed against main (1a2b3c4): the reference (lowered), 3 cassettes". */
  title: string;
  /** What became of the reference, as sentences. */
  reference: string[];
  /** The reference's changed rows: task, variant, change, pass@1 before → after, pass^k. */
  rows: string[][];
  /** Changed cassettes: path, status, before, after, commits. */
  fixtures: string[][];
  /** Changed cassettes not listed here. */
  more: number;
  /** Every cassette edited by hand with a new `meta.curated` entry: "path: by who: why". */
  curated: string[];
  /** Every cassette changed but not re-recorded (a gate failure): "path: why". Never cut. */
  edited: string[];
  /** Every task file, dataset, rubric or label changed: "path (status): tasks; moved: rows". */
  inputs: string[];
}

const short = (commit: string) => commit.slice(0, 7);

function provenanceText(side: CassetteProvenance | undefined): string {
  if (!side) return '—';
  const when = side.recordedAt?.replace(/:\d\d(\.\d+)?Z$/, 'Z');
  const parts = [side.source, side.host, side.model, when].filter(Boolean);
  const hash = side.contentHash ? ` (${side.contentHash.slice(7, 15)})` : '';
  return `${parts.join(', ') || 'unreadable'}${hash}`;
}

function referenceLines(changes: Changes): string[] {
  const { reference, ref, compared } = changes;
  const lines: string[] = [];
  if (reference.baseUnreadable) {
    lines.push(
      `${ref}'s reference cannot be read whole by this build (${reference.baseUnreadable.replace(/; regenerate it.*$/, '')}): its rows are compared below.`,
    );
  }
  if (reference.status === 'same')
    lines.push(`reports/reference.json has the same rows as ${ref}'s.`);
  else if (reference.status === 'absent')
    lines.push(`Neither ${ref} nor this checkout has reports/reference.json.`);
  else if (reference.status === 'added')
    lines.push(`reports/reference.json is new: ${ref} had none.`);
  else if (reference.status === 'removed')
    lines.push(`reports/reference.json is removed: ${ref} had one.`);
  else {
    const counts = ['lowered', 'raised', 'added', 'removed', 'other']
      .map(
        (change) => [change, reference.rows.filter((row) => row.change === change).length] as const,
      )
      .filter(([, count]) => count > 0)
      .map(([change, count]) => `${count} ${change === 'other' ? 'otherwise changed' : change}`);
    lines.push(`reports/reference.json changed against ${ref}'s: ${counts.join(', ')}.`);
  }
  if (reference.unreadable)
    lines.push(`This checkout's reference cannot be read: ${reference.unreadable}`);
  if (reference.lowered) {
    lines.push(
      reference.allowed
        ? "It lowers the bar, and a maintainer allowed it (--allow-lower-reference): the gate compared with this checkout's reference."
        : `It lowers the bar: the gate compared with ${ref}'s reference and fails; a maintainer allows a lower one with --allow-lower-reference (in CI: the allow-lower-reference label).`,
    );
  } else if (compared === 'base') lines.push(`The gate compared with ${ref}'s reference.`);
  return lines;
}

/** A changed verdict input, with the rows of its tasks that moved against the reference. */
function inputLine(input: InputChange, comparison: Comparison | undefined): string {
  const tasks = new Set(input.tasks);
  const moved = (comparison?.entries ?? [])
    .filter((entry) => tasks.has(entry.task) && entry.flag !== 'same')
    .map(
      (entry) =>
        `${entry.task} ${entry.variant} pass@1 ${formatRate(entry.passAt1.before)} → ${formatRate(entry.passAt1.after)}`,
    );
  const decides = input.tasks.length > 0 ? `decides ${input.tasks.join(', ')}` : 'no task names it';
  const rows = comparison
    ? `; ${moved.length > 0 ? `moved: ${moved.join(', ')}` : 'no row moved'}`
    : '';
  return `${input.path} (${input.status}): ${decides}${rows}`;
}

export function changesView(changes: Changes, comparison?: Comparison): ChangesView {
  const inputs = changes.inputs ?? [];
  const count = changes.fixtures.length + changes.fixturesLeftOut;
  const ofClass = (name: string) => changes.fixtures.filter((fixture) => fixture.class === name);
  const edited = ofClass('edited');
  const curated = ofClass('curated');
  const parts = [
    ...(changes.reference.status === 'same' || changes.reference.status === 'absent'
      ? []
      : [`the reference${changes.reference.lowered ? ' (lowered)' : ''}`]),
    ...(count > 0 ? [`${count} cassette${count === 1 ? '' : 's'}`] : []),
    ...(edited.length > 0 ? [`${edited.length} of them changed but not re-recorded`] : []),
    ...(curated.length > 0 ? [`${curated.length} edited by hand (curated)`] : []),
    ...(inputs.length > 0
      ? [
          `${inputs.length} verdict input${inputs.length === 1 ? '' : 's'} (task files, datasets, rubrics, labels)`,
        ]
      : []),
  ];
  const against = `${changes.ref} (${short(changes.commit)})`;
  return {
    title:
      parts.length === 0
        ? `Nothing changed against ${against}: the same reference, cassettes, task files, datasets, rubrics and labels`
        : `Changed against ${against}: ${parts.join(', ')}`,
    reference: referenceLines(changes),
    rows: changes.reference.rows.map((row) => [
      row.task,
      row.variant,
      row.change,
      `${formatRate(row.passAt1.before)} → ${formatRate(row.passAt1.after)}`,
      `${formatRate(row.passHatK.before)} → ${formatRate(row.passHatK.after)}${row.passHatK.k ? ` (k=${row.passHatK.k})` : ''}`,
    ]),
    fixtures: changes.fixtures.map((fixture) => [
      fixture.path,
      fixture.class && fixture.class !== fixture.status
        ? `${fixture.status}, ${CLASS_LABEL[fixture.class]}`
        : fixture.status,
      provenanceText(fixture.before),
      provenanceText(fixture.after),
      fixture.commits.map((commit) => `${commit.commit} ${commit.author}`).join('; ') ||
        'not committed',
    ]),
    more: changes.fixturesLeftOut,
    curated: curated.map(
      (fixture) =>
        `${fixture.path}: by ${fixture.after?.curated?.by ?? '?'}: ${fixture.after?.curated?.reason ?? '?'}`,
    ),
    edited: edited.map((fixture) => `${fixture.path}: ${fixture.why ?? 'not re-recorded'}`),
    inputs: inputs.map((input) => inputLine(input, comparison)),
  };
}

const CLASS_LABEL: Record<NonNullable<FixtureChange['class']>, string> = {
  're-recorded': 're-recorded',
  're-derived': 're-derived, matching',
  edited: 'CHANGED, NOT RE-RECORDED',
  curated: 'edited by hand (curated)',
  removed: 'removed',
};
