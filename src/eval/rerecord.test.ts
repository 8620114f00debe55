import { describe, expect, it } from 'vitest';
import { groupRerecordCommands, rerecordCommand } from './rerecord.js';

describe('groupRerecordCommands', () => {
  it('merges the trials of one task and variant into one command', () => {
    const commands = [3, 1, 2].map((trial) => rerecordCommand('T1', 'upgraded', trial, true));
    expect(groupRerecordCommands(commands)).toEqual([
      'npm run record -- --task T1 --variant upgraded --trial 1,2,3 --simulated',
    ]);
  });

  it('keeps tasks, variants and live vs simulated apart, in first-seen order', () => {
    const commands = [
      rerecordCommand('T2', 'baseline', 2, false),
      rerecordCommand('T1', 'upgraded', 1, true),
      rerecordCommand('T2', 'baseline', 1, false),
      rerecordCommand('T1', 'upgraded', 1, false),
    ];
    expect(groupRerecordCommands(commands)).toEqual([
      'npm run record -- --task T2 --variant baseline --trial 1,2',
      'npm run record -- --task T1 --variant upgraded --trial 1 --simulated',
      'npm run record -- --task T1 --variant upgraded --trial 1',
    ]);
  });

  it('passes commands without a trial flag through once', () => {
    expect(
      groupRerecordCommands(['npm run record -- --trials 3', 'npm run record -- --trials 3']),
    ).toEqual(['npm run record -- --trials 3']);
  });
});
