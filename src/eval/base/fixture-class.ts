import { join } from 'node:path';
import { canonicalJson } from '../../core/canonical-json.js';
import type { Policy } from '../../simulator/policy.js';
import type { CassetteProvenance, FixtureChange } from '../spec/changes-schema.js';
import { verifyCassette, verifyJudgeCassette } from '../verify/verify-fixtures.js';

const JUDGE_FILE = /^fixtures\/([^/]+)\/([^/]+)\/(?:([^/]+)\/)?trial-(\d+)\.judge\.json$/;

/**
 * What a changed cassette is, from what can be checked in the checkout: `curated` when it carries
 * a `meta.curated` entry the base did not (a reviewable edit by hand); `edited` when an answer
 * does not follow from its request (a simulator cassette re-derived), it cannot be read, or its
 * content changed while its recordedAt did not; `re-derived` when every answer of a simulator
 * cassette follows from its request; `re-recorded` when a live (or model-script) cassette has a
 * new recordedAt. A live answer cannot be re-derived: `re-recorded` is what its provenance says.
 */
export async function classifyChange(
  projectDir: string,
  change: Pick<FixtureChange, 'path' | 'status' | 'before' | 'after'>,
  policies?: readonly Policy[],
): Promise<Pick<FixtureChange, 'class' | 'why'>> {
  const { path, status, before, after } = change;
  if (status === 'removed') return { class: 'removed' };
  if (after?.curated && canonicalJson(after.curated) !== canonicalJson(before?.curated))
    return { class: 'curated' };
  const verdict = await checked(projectDir, path, policies);
  const problem = verdict.problems[0];
  if (problem !== undefined) return { class: 'edited', why: problem };
  if (verdict.source === 'simulator' && !verdict.notRederived) return { class: 're-derived' };
  if (status === 'added' || !sameRecording(before, after)) return { class: 're-recorded' };
  return {
    class: 'edited',
    why: `its content changed while its recordedAt (${after?.recordedAt ?? 'none'}) and provenance did not: not a recording; re-record it, restore it, or name who edited it and why in meta.curated`,
  };
}

/** Both sides claim the same recording: the same recordedAt, source, host and model. */
function sameRecording(
  before: CassetteProvenance | undefined,
  after: CassetteProvenance | undefined,
): boolean {
  const fields = ['recordedAt', 'source', 'host', 'model'] as const;
  return fields.every((field) => before?.[field] === after?.[field]);
}

/** verify's own checks of the checkout's file, without the reference's hash. */
async function checked(projectDir: string, path: string, policies?: readonly Policy[]) {
  const file = join(projectDir, path);
  const judge = JUDGE_FILE.exec(path);
  if (!judge) return verifyCassette(file, { shown: path, ...(policies && { policies }) });
  const [, task = '', variant = '', testCase, trial = '0'] = judge;
  const label = {
    task,
    variant,
    trial: Number(trial),
    ...(testCase !== undefined && { case: testCase }),
  };
  return verifyJudgeCassette(file, { shown: path, label });
}
