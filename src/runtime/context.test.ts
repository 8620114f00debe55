import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import { buildSystemPrompt, loadInstructionFiles } from './context.js';

const clock = createVirtualClock({ start: new Date('2026-09-15T23:30:00Z') });

describe('buildSystemPrompt', () => {
  it('assembles role, project instructions and run environment in the exact fixed format', () => {
    const prompt = buildSystemPrompt({
      role: 'You are the refund desk agent.\n',
      instructionFiles: [
        { name: 'AGENTS.md', text: '\nRefunds over 1000 need a supervisor.\n\n' },
        { name: 'AGENTS.local.md', text: 'Answer in English.' },
      ],
      clock,
      mode: 'unattended',
    });
    expect(prompt.text).toBe(
      [
        '# Role',
        'You are the refund desk agent.',
        '',
        '# Project instructions',
        '<file name="AGENTS.md">',
        'Refunds over 1000 need a supervisor.',
        '</file>',
        '<file name="AGENTS.local.md">',
        'Answer in English.',
        '</file>',
        '',
        '# Run environment',
        'Today is 2026-09-15.',
        "Mode: unattended. Anything that needs a human's approval is refused.",
      ].join('\n'),
    );
    expect(prompt.instructionsTruncated).toBe(false);
  });

  it('reports each section with its size, adding up to the whole text', () => {
    const prompt = buildSystemPrompt({
      role: 'Role text.',
      instructionFiles: [{ name: 'AGENTS.md', text: 'Be brief.' }],
      clock,
      mode: 'interactive',
    });
    expect(prompt.sections.map((section) => section.title)).toEqual([
      'Role',
      'Project instructions',
      'Run environment',
    ]);
    const separators = 2 * (prompt.sections.length - 1);
    const sum = prompt.sections.reduce((total, section) => total + section.chars, 0);
    expect(sum + separators).toBe(prompt.text.length);
  });

  it('states the interactive mode', () => {
    const prompt = buildSystemPrompt({ role: 'r', clock, mode: 'interactive' });
    expect(
      prompt.text.endsWith(
        '\nMode: interactive. Write operations ask the user for approval first.',
      ),
    ).toBe(true);
  });

  it('omits the project instructions section when there are no files (or only empty ones)', () => {
    for (const instructionFiles of [[], [{ name: 'AGENTS.md', text: ' \n ' }]]) {
      const prompt = buildSystemPrompt({ role: 'r', instructionFiles, clock, mode: 'unattended' });
      expect(prompt.text).not.toContain('# Project instructions');
      expect(prompt.sections.map((section) => section.title)).toEqual(['Role', 'Run environment']);
    }
  });

  it('takes today from the injected clock in UTC, not from the wall clock', () => {
    const early = createVirtualClock({ start: Date.UTC(2031, 0, 2, 0, 0, 1) });
    expect(buildSystemPrompt({ role: 'r', clock: early, mode: 'unattended' }).text).toContain(
      'Today is 2031-01-02.',
    );
    early.advance(24 * 60 * 60 * 1000);
    expect(buildSystemPrompt({ role: 'r', clock: early, mode: 'unattended' }).text).toContain(
      'Today is 2031-01-03.',
    );
  });

  it('cuts instructions to the budget, AGENTS.md first, and says how much was kept', () => {
    const prompt = buildSystemPrompt({
      role: 'r',
      instructionFiles: [
        { name: 'AGENTS.md', text: 'a'.repeat(6) },
        { name: 'AGENTS.local.md', text: 'b'.repeat(6) },
      ],
      instructionBudget: 8,
      clock,
      mode: 'unattended',
    });
    expect(prompt.instructionsTruncated).toBe(true);
    expect(prompt.text).toContain(
      [
        '# Project instructions',
        '<file name="AGENTS.md">',
        'aaaaaa',
        '</file>',
        '<file name="AGENTS.local.md">',
        'bb',
        '</file>',
        '[project instructions truncated: 8 of 12 characters kept]',
        '',
        '# Run environment',
      ].join('\n'),
    );
  });

  it('drops a later file entirely when the budget is spent on earlier ones', () => {
    const prompt = buildSystemPrompt({
      role: 'r',
      instructionFiles: [
        { name: 'AGENTS.md', text: 'x'.repeat(4500) },
        { name: 'AGENTS.local.md', text: 'personal' },
      ],
      clock,
      mode: 'unattended',
    });
    expect(prompt.text).toContain(`<file name="AGENTS.md">\n${'x'.repeat(4000)}\n</file>\n`);
    expect(prompt.text).not.toContain('AGENTS.local.md');
    expect(prompt.text).toContain('[project instructions truncated: 4000 of 4508 characters kept]');
  });
});

describe('loadInstructionFiles', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('reads AGENTS.md before AGENTS.local.md', () => {
    dir = mkdtempSync(join(tmpdir(), 'harness-context-'));
    writeFileSync(join(dir, 'AGENTS.local.md'), 'personal');
    writeFileSync(join(dir, 'AGENTS.md'), 'team');
    expect(loadInstructionFiles(dir)).toEqual([
      { name: 'AGENTS.md', text: 'team' },
      { name: 'AGENTS.local.md', text: 'personal' },
    ]);
  });

  it('skips missing files without complaint', () => {
    dir = mkdtempSync(join(tmpdir(), 'harness-context-'));
    expect(loadInstructionFiles(dir)).toEqual([]);
    writeFileSync(join(dir, 'AGENTS.local.md'), 'personal');
    expect(loadInstructionFiles(dir)).toEqual([{ name: 'AGENTS.local.md', text: 'personal' }]);
  });
});
