import { describe, expect, it } from 'vitest';
import { holds, parseWhen } from './permission-conditions.js';

/** Whether `when` holds for `input` under a deny or ask rule (fail closed) and under an allow rule. */
function judged(when: string, input: Record<string, unknown>) {
  const conditions = parseWhen(when);
  const all = (failClosed: boolean) =>
    conditions.every((condition) => holds(condition, input, failClosed));
  return { deny: all(true), allow: all(false) };
}

describe('= and != on lists and objects', () => {
  it('lets a deny rule stop a list that holds one address outside the glob', () => {
    // The break: `send_email(to!=*@corp.test)` let `to: ["mallory@evil.test"]` through.
    expect(judged('to!=*@corp.test', { to: ['mallory@evil.test'] }).deny).toBe(true);
    expect(judged('to!=*@corp.test', { to: ['a@corp.test', 'mallory@evil.test'] }).deny).toBe(true);
    expect(judged('to!=*@corp.test', { to: ['a@corp.test', 'b@corp.test'] }).deny).toBe(false);
    expect(judged('to=*@evil.test', { to: ['a@corp.test', 'mallory@evil.test'] }).deny).toBe(true);
    expect(judged('to=*@evil.test', { to: ['a@corp.test'] }).deny).toBe(false);
  });

  it('allows a list only when every item matches', () => {
    expect(judged('to=*@corp.test', { to: ['a@corp.test', 'b@corp.test'] }).allow).toBe(true);
    expect(judged('to=*@corp.test', { to: ['a@corp.test', 'mallory@evil.test'] }).allow).toBe(
      false,
    );
    expect(judged('to!=*@evil.test', { to: ['a@corp.test', 'm@evil.test'] }).allow).toBe(false);
  });

  it('reads nested lists and numbers inside lists the way it reads single values', () => {
    expect(judged('to!=*@corp.test', { to: [['a@corp.test'], ['m@evil.test']] }).deny).toBe(true);
    expect(judged('amount=1000', { amount: [5, 1000] }).deny).toBe(true);
    expect(judged('amount=1000', { amount: [5, 1000] }).allow).toBe(false);
    expect(judged('amount=1000', { amount: ['1000', 1000.0] }).allow).toBe(true);
  });

  it('fails closed on what it cannot compare as text: objects, empty lists, null items', () => {
    for (const to of [{ address: 'm@evil.test' }, [], [null], ['a@corp.test', { x: 1 }]]) {
      expect([to, judged('to!=*@corp.test', { to })]).toEqual([to, { deny: true, allow: false }]);
      expect([to, judged('to=*@corp.test', { to })]).toEqual([to, { deny: true, allow: false }]);
    }
  });

  it('still never matches a missing or null field', () => {
    expect(judged('to!=*@corp.test', {})).toEqual({ deny: false, allow: false });
    expect(judged('to!=*@corp.test', { to: null })).toEqual({ deny: false, allow: false });
  });
});

describe('dotted paths through lists, nested lists, null and wrong types', () => {
  const rule = 'payees.account!=6222*';

  it('judges each item of a list of objects (the break: a list read as a missing field)', () => {
    const one = { payees: [{ account: '9999000011112222' }] };
    const mixed = { payees: [{ account: '6222020200112233' }, { account: '9999000011112222' }] };
    const ours = { payees: [{ account: '6222020200112233' }, { account: '6222111122223333' }] };
    expect(judged(rule, one)).toEqual({ deny: true, allow: true });
    expect(judged(rule, mixed)).toEqual({ deny: true, allow: false });
    expect(judged(rule, ours)).toEqual({ deny: false, allow: false });
    expect(judged('payees.account=6222*', ours)).toEqual({ deny: true, allow: true });
  });

  it('judges nested lists item by item', () => {
    const nested = { payees: [[{ account: '6222020200112233' }], [{ account: '9999' }]] };
    expect(judged(rule, nested)).toEqual({ deny: true, allow: false });
    expect(
      judged('batches.payees.account!=6222*', { batches: [{ payees: [{ account: '1' }] }] }),
    ).toEqual({ deny: true, allow: true });
  });

  it('fails closed once the path is entered: a missing field in an item, null, a wrong type', () => {
    for (const payees of [
      [{ account: '6222020200112233' }, { acct: '9999' }],
      [{ account: null }],
      [null],
      'ACC-9999',
      { account: null },
      {},
      [],
    ]) {
      expect([payees, judged(rule, { payees })]).toEqual([payees, { deny: true, allow: false }]);
      expect([payees, judged('payees.account~9999', { payees })]).toEqual([
        payees,
        expect.objectContaining({ allow: false }),
      ]);
      expect([payees, judged('payees.account~zz', { payees })]).toEqual([
        payees,
        { deny: !(Array.isArray(payees) && payees.length === 0), allow: false },
      ]);
      expect([payees, judged('payees.amount>1000', { payees })]).toEqual([
        payees,
        { deny: true, allow: false },
      ]);
    }
  });

  it('fails closed on an object where text is compared', () => {
    const payees = [{ account: { number: '9999' } }];
    expect(judged(rule, { payees })).toEqual({ deny: true, allow: false });
  });

  it('still never matches when the first field is missing or null (a rule for every tool)', () => {
    expect(judged(rule, {})).toEqual({ deny: false, allow: false });
    expect(judged(rule, { payees: null })).toEqual({ deny: false, allow: false });
  });
});
