import { keyOf } from '../spec/selection.js';
import { notCounted } from './format.js';
import type { EvalReport, TaskSummary } from './report-schema.js';

/** A row's warning: its rates mix models or fixture sources, or some trials were not counted. */
export interface RowMark {
  kind: 'mixed-models' | 'mixed-sources' | 'fixture-problems';
  text: string;
  /** What it means, for the mark's tooltip. */
  title: string;
}

/** A mark when `parts` holds anything: "<label>: <parts joined>". */
function markIf(
  kind: RowMark['kind'],
  label: string,
  parts: string[],
  join: string,
  title: string,
): RowMark[] {
  return parts.length > 0 ? [{ kind, text: `${label}: ${parts.join(join)}`, title }] : [];
}

/** The fixture sources of each row's trials, by keyOf, from the report's own provenance. */
function sourcesByRow(report: Pick<EvalReport, 'trialProvenance'>): Map<string, Set<string>> {
  const byRow = new Map<string, Set<string>>();
  for (const trial of report.trialProvenance) {
    if (trial.source === undefined) continue;
    const sources = byRow.get(keyOf(trial)) ?? new Set<string>();
    byRow.set(keyOf(trial), sources.add(trial.source));
  }
  return byRow;
}

/**
 * The marks of each score row, computed once with the report model (every renderer reads them
 * there): mixed models, mixed fixture sources, and trials not counted for a fixture problem.
 */
export function rowMarks(
  report: Pick<EvalReport, 'trialProvenance'>,
): (row: TaskSummary) => RowMark[] {
  const sources = sourcesByRow(report);
  return (row) => {
    const mixed = [...(sources.get(keyOf(row)) ?? [])].sort();
    return [
      ...markIf(
        'mixed-models',
        'mixed models',
        row.mixedModels ?? [],
        ', ',
        'the trials of this row ran on different models: its rates mix them',
      ),
      ...markIf(
        'mixed-sources',
        'mixed fixtures',
        mixed.length > 1 ? mixed : [],
        ' + ',
        'some trials replayed simulator fixtures, some live recordings',
      ),
      ...markIf(
        'fixture-problems',
        'fixture problems',
        notCounted({ ...row.excluded, errored: [] }),
        ', ',
        'these trials were not counted; re-record them (the commands are below)',
      ),
    ];
  };
}
