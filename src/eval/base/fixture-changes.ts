import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CuratedSchema } from '../../replay/cassette.js';
import { contentHashOf } from '../../replay/cassette-hash.js';
import type { Policy } from '../../simulator/policy.js';
import type { CassetteProvenance, FixtureChange } from '../spec/changes-schema.js';
import { classifyChange } from './fixture-class.js';
import { changedPaths, filesAt, git } from './git.js';

/**
 * The cassettes under fixtures/ that differ between `commit` and this checkout (committed or
 * not), each with who and what recorded it on either side, and the commits since `commit` that
 * touched it. A cassette whose content is the same (re-indented, keys reordered) is no change.
 */
export async function fixtureChanges(
  projectDir: string,
  commit: string,
  /** What re-derives a simulator cassette (default: the built-in policies; tests add the demos'). */
  policies?: readonly Policy[],
): Promise<{ fixtures: FixtureChange[]; leftOut: number }> {
  const paths = await changedPaths(projectDir, commit, 'fixtures', (path) =>
    path.endsWith('.json'),
  );
  const authors = await commitsSince(projectDir, commit);
  const sorted = [...paths].sort(([a], [b]) => a.localeCompare(b));
  const baseTexts = await filesAt(
    projectDir,
    commit,
    sorted.filter(([, status]) => status !== 'added').map(([path]) => path),
  );
  // Every one: the JSON report lists all, and each is classified (an edit cannot hide past a cap).
  const fixtures: FixtureChange[] = [];
  for (const [path, status] of sorted) {
    const before = status === 'added' ? undefined : provenanceOf(baseTexts.get(path));
    const after =
      status === 'removed'
        ? undefined
        : provenanceOf(await readFile(join(projectDir, path), 'utf8').catch(() => undefined));
    // The same content, laid out otherwise: nothing a replay or a reviewer would see differ.
    if (status === 'modified' && before?.contentHash && before.contentHash === after?.contentHash)
      continue;
    const change = { path, status, ...(before && { before }), ...(after && { after }) };
    fixtures.push({
      ...change,
      ...(await classifyChange(projectDir, change, policies)),
      commits: (authors.get(path) ?? []).slice(0, 3),
    });
  }
  return { fixtures, leftOut: 0 };
}

/** Who recorded a cassette, read from its text; its content hash computed, whatever it claims. */
function provenanceOf(text: string | undefined): CassetteProvenance | undefined {
  if (text === undefined) return undefined;
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(text);
  } catch {
    return {};
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return {};
  const { contentHash: _claimed, ...content } = data;
  const meta = (content.meta ?? {}) as Record<string, unknown>;
  const text_ = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : undefined);
  const source = meta.source === 'live' || meta.source === 'simulator' ? meta.source : undefined;
  const fields = {
    source,
    host: text_(meta.host),
    model: text_(meta.model),
    recordedAt: text_(meta.recordedAt),
  };
  const curated = CuratedSchema.safeParse(meta.curated);
  return {
    ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
    contentHash: contentHashOf(content),
    ...(curated.success && { curated: curated.data }),
  };
}

/** Per path under fixtures/: the commits since `commit` that touched it, newest first. */
async function commitsSince(
  projectDir: string,
  commit: string,
): Promise<Map<string, Array<{ commit: string; author: string }>>> {
  const log = await git(projectDir, [
    'log',
    '--relative',
    '--format=%x1e%h%x1f%an',
    '--name-only',
    `${commit}..HEAD`,
    '--',
    'fixtures',
  ]);
  const touched = new Map<string, Array<{ commit: string; author: string }>>();
  for (const entry of log.split('\x1e').slice(1)) {
    const [head = '', ...files] = entry.split('\n');
    const [short = '', author = ''] = head.split('\x1f');
    for (const file of files.filter(Boolean)) {
      touched.set(file, [
        ...(touched.get(file) ?? []),
        { commit: short, author: author.slice(0, 100) },
      ]);
    }
  }
  return touched;
}
