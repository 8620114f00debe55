import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scaffold } from './scaffold.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harness-evals-init-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const packageJson = (scripts: Record<string, string>) =>
  writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'p', scripts }, null, 2));

describe('scaffold', () => {
  it('creates the evals, configs, workflow and scripts, replacing only npm placeholder test', async () => {
    await packageJson({ test: 'echo "Error: no test specified" && exit 1' });
    const result = await scaffold(dir);
    for (const file of [
      'evals/helpdesk.agent.ts',
      'evals/helpdesk.model.ts',
      'evals/h1-ticket-status.eval.ts',
      'evals/rubrics/clear-status.md',
      'vitest.evals.config.mts',
      'AGENTS.md',
      '.gitignore',
      '.github/workflows/harness-evals.yml',
    ]) {
      expect(result.created).toContain(file);
      expect(existsSync(join(dir, file))).toBe(true);
    }
    expect(existsSync(join(dir, 'reports'))).toBe(true);
    const { scripts } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(scripts).toEqual({
      test: 'harness-evals eval',
      eval: 'harness-evals eval',
      record: 'harness-evals record',
      view: 'harness-evals view',
    });
    expect(result.leftAlone).toEqual([]);
  });

  it('never overwrites: an existing file or script is kept and listed', async () => {
    await packageJson({ test: 'vitest run' });
    await writeFile(join(dir, 'AGENTS.md'), '# ours\n');
    const result = await scaffold(dir);
    expect(await readFile(join(dir, 'AGENTS.md'), 'utf8')).toBe('# ours\n');
    expect(result.leftAlone).toContain('AGENTS.md');
    expect(result.leftAlone).toContain('package.json script "test" (vitest run)');
    const { scripts } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(scripts.test).toBe('vitest run');

    const again = await scaffold(dir);
    expect(again.created).toEqual([]);
    expect(again.leftAlone).toContain('evals/helpdesk.agent.ts');
  });

  it('asks for a package.json first, and writes nothing until there is one', async () => {
    await expect(scaffold(dir)).rejects.toThrow(/no package.json .*npm init -y/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['null', /must be an object/],
    ['[]', /must be an object/],
    ['{"scripts": "x"}', /"scripts" \(if any\) maps names to command strings/],
    ['{"scripts": {"test": 1}}', /maps names to command strings/],
    ['{"name": ', /not valid JSON/],
  ])(
    'refuses package.json %s with one clear error and writes nothing else',
    async (text, message) => {
      writeFileSync(join(dir, 'package.json'), text);
      await expect(scaffold(dir)).rejects.toThrow(message);
      expect(readdirSync(dir)).toEqual(['package.json']);
      expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(text);
    },
  );

  it('writes through a symlinked package.json to its target, keeping every byte it does not add', async () => {
    mkdirSync(join(dir, 'real'));
    const original = '{"name":"x","config":{"id":12345678901234567890},"scripts":{}}\n';
    writeFileSync(join(dir, 'real/package.json'), original);
    symlinkSync('real/package.json', join(dir, 'package.json'));
    await scaffold(dir);
    expect(lstatSync(join(dir, 'package.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real/package.json'), 'utf8')).toBe(
      '{"name":"x","config":{"id":12345678901234567890},"scripts":{"eval": "harness-evals eval", "record": "harness-evals record", "view": "harness-evals view", "test": "harness-evals eval"}}\n',
    );
  });

  it('edits the text of package.json: indent, CRLF, escapes, key order and big numbers stay', async () => {
    const text = [
      '\ufeff{',
      '    "name": "caf\\u00e9",',
      '    "version": 1.10,',
      '    "scripts": {',
      '        "test": "echo \\"Error: no test specified\\" && exit 1",',
      '        "build": "tsc"',
      '    },',
      '    "big": 12345678901234567890',
      '}',
      '',
    ].join('\r\n');
    writeFileSync(join(dir, 'package.json'), text);
    await scaffold(dir);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(
      [
        '\ufeff{',
        '    "name": "caf\\u00e9",',
        '    "version": 1.10,',
        '    "scripts": {',
        '        "test": "harness-evals eval",',
        '        "build": "tsc",',
        '        "eval": "harness-evals eval",',
        '        "record": "harness-evals record",',
        '        "view": "harness-evals view"',
        '    },',
        '    "big": 12345678901234567890',
        '}',
        '',
      ].join('\r\n'),
    );
  });

  it("adds a scripts object at the end when there is none, in the file's indent", async () => {
    writeFileSync(join(dir, 'package.json'), '{\n\t"name": "p"\n}\n');
    await scaffold(dir);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(
      '{\n\t"name": "p",\n\t"scripts": {\n\t\t"eval": "harness-evals eval",\n\t\t"record": "harness-evals record",\n\t\t"view": "harness-evals view",\n\t\t"test": "harness-evals eval"\n\t}\n}\n',
    );
  });

  it('refuses a package.json it cannot edit without rewriting (a duplicate "scripts") and writes nothing', async () => {
    const text = '{"scripts": {"build": "tsc"}, "name": "p", "scripts": {"lint": "biome"}}';
    writeFileSync(join(dir, 'package.json'), text);
    await expect(scaffold(dir)).rejects.toThrow(
      /package\.json has "scripts" twice.*add the scripts by hand: "eval": "harness-evals eval"/,
    );
    expect(readdirSync(dir)).toEqual(['package.json']);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(text);
  });

  it('keeps a dangling AGENTS.md symlink and says what it points to', async () => {
    await packageJson({});
    symlinkSync('docs/AGENTS.md', join(dir, 'AGENTS.md'));
    const result = await scaffold(dir);
    expect(readlinkSync(join(dir, 'AGENTS.md'))).toBe('docs/AGENTS.md');
    expect(result.created).not.toContain('AGENTS.md');
    expect(result.leftAlone).toContain(
      'AGENTS.md (a symlink to docs/AGENTS.md, which does not exist)',
    );
  });

  it.each([
    ['evals', 'evals/h1-ticket-status.eval.ts'],
    ['.github', '.github/workflows/harness-evals.yml'],
    ['reports', 'reports/'],
  ])(
    'refuses when %s is a file, naming it and the fix, before creating anything',
    async (name, needs) => {
      await packageJson({});
      writeFileSync(join(dir, name), 'not a folder\n');
      const before = readFileSync(join(dir, 'package.json'), 'utf8');
      const error = await scaffold(dir).then(
        () => undefined,
        (thrown: unknown) => thrown as Error,
      );
      expect(error?.message).toContain(`${name} is a file, not a folder, and init needs ${needs}`);
      expect(error?.message).toContain(`rename or remove ${name} and run init again`);
      expect(readdirSync(dir).sort()).toEqual([name, 'package.json'].sort());
      expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(before);
    },
  );

  it.each([
    ['evals', 'evals'],
    ['.github', '.github'],
    ['.github/workflows', '.github'],
    ['reports', 'reports'],
    ['fixtures', 'fixtures'],
  ])(
    'refuses a symlinked %s that leads outside the project, writing nothing anywhere',
    async (link, first) => {
      await packageJson({});
      const elsewhere = await mkdtemp(join(tmpdir(), 'harness-evals-init-elsewhere-'));
      try {
        if (link.includes('/')) mkdirSync(join(dir, first));
        symlinkSync(elsewhere, join(dir, link));
        const before = readFileSync(join(dir, 'package.json'), 'utf8');
        const error = await scaffold(dir).then(
          () => undefined,
          (thrown: unknown) => thrown as Error,
        );
        expect(error?.message).toMatch(
          new RegExp(
            `^${link.replace('.', '\\.')} leads outside the project \\(to .*harness-evals-init-elsewhere-.*\\), so init's .* would write there`,
          ),
        );
        expect(readdirSync(elsewhere)).toEqual([]);
        expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(before);
      } finally {
        await rm(elsewhere, { recursive: true, force: true });
      }
    },
  );

  it('follows a symlinked folder that stays inside the project', async () => {
    await packageJson({});
    mkdirSync(join(dir, 'tests'));
    symlinkSync('tests', join(dir, 'evals'));
    await scaffold(dir);
    expect(existsSync(join(dir, 'tests/h1-ticket-status.eval.ts'))).toBe(true);
  });

  it('refuses a package.json linked from outside the project, and a read-only one', async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'harness-evals-init-elsewhere-'));
    try {
      const outside = join(elsewhere, 'package.json');
      writeFileSync(outside, '{"name":"p"}\n');
      symlinkSync(outside, join(dir, 'package.json'));
      const linked = await scaffold(dir).then(
        () => undefined,
        (thrown: unknown) => thrown as Error,
      );
      expect(linked?.message).toMatch(/^package\.json leads outside the project/);
      expect(readFileSync(outside, 'utf8')).toBe('{"name":"p"}\n');
      await rm(join(dir, 'package.json'));
      await packageJson({});
      chmodSync(join(dir, 'package.json'), 0o444);
      const before = readFileSync(join(dir, 'package.json'), 'utf8');
      const readOnly = await scaffold(dir).then(
        () => undefined,
        (thrown: unknown) => thrown as Error,
      );
      expect(readOnly?.message).toMatch(
        /^package\.json is read-only \(no write permission for anyone\), so init cannot add its scripts .* add the scripts by hand: "eval": "harness-evals eval"/,
      );
      expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(before);
      expect(statSync(join(dir, 'package.json')).mode & 0o777).toBe(0o444);
      expect(existsSync(join(dir, 'evals'))).toBe(false);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('scaffold into a project that has been set up', () => {
  it('never brings the example back into a project that removed it, or that has evals of its own', async () => {
    await packageJson({});
    await scaffold(dir);
    for (const file of ['helpdesk.agent.ts', 'helpdesk.model.ts', 'h1-ticket-status.eval.ts']) {
      await rm(join(dir, 'evals', file));
    }
    await rm(join(dir, 'evals/rubrics'), { recursive: true });
    const again = await scaffold(dir);
    expect(again.created).toEqual([]);
    expect(again.skipped).toEqual([
      'evals/h1-ticket-status.eval.ts',
      'evals/helpdesk.agent.ts',
      'evals/helpdesk.model.ts',
      'evals/rubrics/clear-status.md',
    ]);
    expect(readdirSync(join(dir, 'evals'))).toEqual([]);

    // A fresh project that already has its own eval files gets the rest, not the example.
    const other = await mkdtemp(join(tmpdir(), 'harness-evals-init-own-'));
    try {
      writeFileSync(join(other, 'package.json'), '{"name":"own"}');
      mkdirSync(join(other, 'evals'));
      writeFileSync(join(other, 'evals', 'mine.eval.ts'), '');
      const result = await scaffold(other);
      expect(result.skipped).toHaveLength(4);
      expect(result.created).toContain('vitest.evals.config.mts');
      expect(readdirSync(join(other, 'evals'))).toEqual(['mine.eval.ts']);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('adds what a run writes to an existing .gitignore, once, keeping its bytes and line ends', async () => {
    await packageJson({});
    writeFileSync(join(dir, '.gitignore'), 'dist/\r\n/runs/\r\n*.tgz');
    const first = await scaffold(dir);
    expect(first.updated).toEqual([
      '.gitignore (added node_modules/, reports/latest.json, reports/latest.md, reports/latest.html, reports/shards/, reports/screenshots/)',
    ]);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(
      'dist/\r\n/runs/\r\n*.tgz\r\n# harness-evals\r\nnode_modules/\r\nreports/latest.json\r\nreports/latest.md\r\nreports/latest.html\r\nreports/shards/\r\nreports/screenshots/\r\n',
    );
    const second = await scaffold(dir);
    expect(second.updated).toEqual([]);
    expect(second.leftAlone).toContain('.gitignore');
  });

  it('writes a .gitignore that ignores the HTML report, shard results and packed tarballs', async () => {
    await packageJson({});
    await scaffold(dir);
    const lines = readFileSync(join(dir, '.gitignore'), 'utf8').split('\n');
    for (const line of ['reports/latest.html', 'reports/shards/', '*.tgz'])
      expect(lines).toContain(line);
  });
});
