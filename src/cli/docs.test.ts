import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from './dispatch.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const scripts = Object.keys(
  (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: object }).scripts,
);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\w\- ]/gu, '')
    .replaceAll(' ', '-');

/** The page's text outside code blocks, and its code (blocks and inline spans). */
function parts(file: string): { prose: string; code: string[] } {
  const text = readFileSync(join(root, file), 'utf8');
  const code: string[] = [];
  const prose = text.replace(/^```[^\n]*\n([\s\S]*?)^```/gm, (_, block: string) => {
    code.push(block);
    return '';
  });
  for (const [, span] of prose.matchAll(/`([^`\n]+)`/g)) code.push(span!);
  return { prose, code };
}

function anchorsOf(file: string): Set<string> {
  return new Set(
    [...parts(file).prose.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => slug(heading!)),
  );
}

describe('README.md and docs/', () => {
  it('name only npm scripts and harness-evals commands that exist', () => {
    const unknown: string[] = [];
    for (const file of DOCS) {
      for (const code of parts(file).code) {
        for (const [, script] of code.matchAll(/\bnpm run ([\w:.-]*\w)/g)) {
          if (!scripts.includes(script!)) unknown.push(`${file}: npm run ${script}`);
        }
        for (const [, list] of code.matchAll(
          /\bharness-evals ((?:[a-z][\w-]*)(?: \| [a-z][\w-]*)*)/g,
        )) {
          for (const command of list!.split(' | ')) {
            if (!COMMAND_NAMES.includes(command)) unknown.push(`${file}: harness-evals ${command}`);
          }
        }
      }
    }
    expect(unknown).toEqual([]);
  });

  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const [, target] of parts(file).prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:)/.test(target!)) continue;
        const [path = '', fragment] = target!.split('#');
        const linked = path === '' ? file : relative(root, join(root, dirname(file), path));
        let text: string | undefined;
        try {
          text = readFileSync(join(root, linked), 'utf8');
        } catch {
          broken.push(`${file}: ${target} (no file ${linked})`);
          continue;
        }
        if (fragment !== undefined && text !== undefined && !anchorsOf(linked).has(fragment)) {
          broken.push(`${file}: ${target} (no heading #${fragment} in ${linked})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('keep the README short, and start each page with what a reader will be able to do', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(
      250,
    );
    for (const file of DOCS.filter((name) => name.startsWith('docs/'))) {
      const [title, , able] = readFileSync(join(root, file), 'utf8').split('\n');
      expect([file, title]).toEqual([file, expect.stringMatching(/^# \S/)]);
      expect([file, able]).toEqual([
        file,
        expect.stringMatching(/^\*\*What you will be able to do:\*\* \S/),
      ]);
    }
  });

  it('catch a command or a link that does not exist', () => {
    // The checks above, on text written to fail them.
    expect(scripts).not.toContain('evaluate');
    expect(COMMAND_NAMES).not.toContain('lint');
    expect(anchorsOf('docs/ci.md').has('no-such-heading')).toBe(false);
    expect(anchorsOf('docs/ci.md').has('the-gate-against-the-base-branch')).toBe(true);
  });
});
