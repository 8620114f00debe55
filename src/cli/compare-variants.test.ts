import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { caseFlags } from './args.js';
import { variantPair } from './eval.js';

const dir = mkdtempSync(join(tmpdir(), 'harness-evals-compare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('eval --compare', () => {
  it('takes two variant names as a focused comparison, and a report file as a reference', () => {
    expect(variantPair('baseline,prompt-b', dir)).toEqual(['baseline', 'prompt-b']);
    expect(variantPair(' prod , canary ', dir)).toEqual(['prod', 'canary']);
    expect(variantPair('reports/reference.json', dir)).toBeUndefined();
    expect(variantPair('a,b,c', dir)).toBeUndefined();
    // A file of that name is a report to compare with, whatever it is called.
    writeFileSync(join(dir, 'old,new'), '{}');
    expect(variantPair('old,new', dir)).toBeUndefined();
    expect(() => variantPair('v1,v1', dir)).toThrow('--compare v1,v1 names one variant twice');
  });
});

describe('--case and --cases', () => {
  it('take case ids or a sample size, not both, and refuse what names no case', () => {
    expect(caseFlags({ case: 'q1,q7' })).toEqual({ cases: ['q1', 'q7'] });
    expect(caseFlags({ cases: '5' })).toEqual({ caseSample: 5 });
    expect(caseFlags({})).toEqual({});
    expect(() => caseFlags({ case: 'q1', cases: '5' })).toThrow(
      'give --case ID[,ID...] or --cases N, not both',
    );
    expect(() => caseFlags({ case: '' })).toThrow(/--case names nothing/);
    expect(() => caseFlags({ case: '../x' })).toThrow(/--case takes case ids of dataset tasks/);
    expect(() => caseFlags({ cases: '0' })).toThrow(/--cases takes a whole number from 1/);
  });
});
