import { describe, expect, it } from 'vitest';
import { jsonTextProblem } from './json-text.js';

describe('jsonTextProblem', () => {
  it('accepts JSON whose every number and key reads back as written', () => {
    for (const text of [
      '{"a":[1,-2.5,0,-0,1e2,1E2,100,3.14159,0.1,1e-7,9007199254740991,100000000000000000000000]}',
      '{"text":"a \\"quoted\\" } { [ ] , : 1e400 string","b":{"text":2},"c":[{"k":1},{"k":2}]}',
      '{"w":"ends in a backslash \\\\","x":0.30000000000000004,"y":1.7976931348623157e308,"z":5e-324}',
      '[]',
      '"1e400"',
    ]) {
      expect(jsonTextProblem(text)).toBeUndefined();
    }
  });

  it('refuses a number a double cannot hold (1e400 reads as Infinity and is written back as null)', () => {
    expect(jsonTextProblem('{"a":{"b":[null,\n1e400]}}')).toBe(
      'line 2: the number 1e400 is out of range for JSON (it reads as Infinity, which is written back as null)',
    );
    expect(jsonTextProblem('[-1E+999]')).toContain('the number -1E+999 is out of range');
  });

  it('refuses a number with more digits than a double holds, which replays as another number', () => {
    expect(jsonTextProblem('{"id":9007199254740993}')).toBe(
      'line 1: the number 9007199254740993 has more digits than a double holds (it reads and replays as 9007199254740992)',
    );
    expect(jsonTextProblem('[12345678901234567890123]')).toContain(
      'replays as 1.2345678901234568e+22)',
    );
    expect(jsonTextProblem('[0.1000000000000000055511]')).toContain('reads and replays as 0.1)');
  });

  it('refuses a key given twice in one object (a reader sees the first, JSON.parse keeps the last)', () => {
    expect(jsonTextProblem('{"a":1,\n"b":{"c":1,"c":2}}')).toBe(
      'line 2: the key "c" appears twice in one object (JSON keeps only the last)',
    );
    expect(jsonTextProblem('{"\\u0061":1,"a":2}')).toContain('the key "a" appears twice');
    expect(jsonTextProblem('{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).toBeUndefined();
  });
});
