import { assert, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { createPermissionPolicy, parseRule } from './permissions.js';
import { createToolPipeline } from './pipeline.js';
import { testRunState } from './testing/run-state.js';
import type { PermissionRule } from './types.js';

/**
 * The seed's approval gate (002): `needs_approval` matches dangerous argument content
 * ("delete from", "drop ", "rm ", "git push --force"). Here the same gate is four `~` rules.
 */
const DANGEROUS: PermissionRule[] = [
  parseRule('run_sql(query~delete from)', 'ask', 'deleting rows needs a human'),
  parseRule('run_sql(query~drop )', 'ask', 'dropping a table needs a human'),
  parseRule('shell(command~rm )', 'ask', 'removing files needs a human'),
  parseRule('shell(command~git push --force)', 'ask', 'force-pushing needs a human'),
  { effect: 'allow', tool: '*' },
];

const run = testRunState({ runId: 'r', mode: 'interactive' });
const policy = createPermissionPolicy(DANGEROUS);
const decide = (tool: string, field: string, text: string) =>
  policy.decide(tool, { [field]: text }, run);

describe('permission rules on dangerous argument content', () => {
  it.each([
    ['run_sql', 'query', "delete from orders where status='test'", 'deleting rows needs a human'],
    ['run_sql', 'query', 'DELETE FROM orders', 'deleting rows needs a human'],
    ['run_sql', 'query', 'DROP TABLE orders', 'dropping a table needs a human'],
    ['run_sql', 'query', 'drop index idx_orders_user', 'dropping a table needs a human'],
    ['shell', 'command', 'rm -rf build', 'removing files needs a human'],
    ['shell', 'command', 'ls && rm notes.txt', 'removing files needs a human'],
    ['shell', 'command', 'git push --force origin main', 'force-pushing needs a human'],
    ['shell', 'command', 'git push --force-with-lease', 'force-pushing needs a human'],
  ])('asks a human for %s(%s: %j)', (tool, field, text, reason) => {
    expect(decide(tool, field, text)).toMatchObject({ effect: 'ask', reason });
  });

  it.each([
    ['run_sql', 'query', 'select * from deleted_orders'],
    ['run_sql', 'query', 'select dropdown_label from ui'],
    ['shell', 'command', 'git push origin main'],
    ['shell', 'command', 'npm run format'],
    ['shell', 'command', 'git status'],
  ])('lets %s(%s: %j) through', (tool, field, text) => {
    expect(decide(tool, field, text).effect).toBe('allow');
  });

  it('keeps the trailing space of `drop ` and `rm `: they are words, not prefixes', () => {
    expect(DANGEROUS[1]?.when).toBe('query~drop ');
    expect(DANGEROUS[2]?.when).toBe('command~rm ');
  });

  it('stops a dangerous call at the gate: a declined one is not executed and the model is told', async () => {
    const executed: string[] = [];
    const runSql = defineTool({
      name: 'run_sql',
      description: 'Run SQL',
      effect: 'write',
      parameters: z.object({ query: z.string() }),
      execute: ({ query }) => {
        executed.push(query);
        return 'ok';
      },
    });
    const asked: string[] = [];
    const pipeline = createToolPipeline({
      tools: [runSql],
      validate: true,
      permissions: policy,
      approver: async (_call, reason) => {
        asked.push(reason);
        return false;
      },
    });
    const [cleanup, read] = await pipeline.runAll(
      [
        { id: 'a', name: 'run_sql', input: { query: "delete from orders where status='test'" } },
        { id: 'b', name: 'run_sql', input: { query: 'select count(*) from orders' } },
      ],
      [0, 1],
      run,
    );
    assert(cleanup?.kind === 'result' && read?.kind === 'result');
    expect(asked).toEqual(['deleting rows needs a human']);
    expect(executed).toEqual(['select count(*) from orders']);
    expect(cleanup.record.decision).toBe('ask_denied');
    expect(cleanup.result.content).toBe(
      'The user declined run_sql; it was not executed. Use another approach.',
    );
    expect(read.record.decision).toBe('allow');
  });
});

describe('a deny rule on a dotted path through a list, through the pipeline', () => {
  const paid: unknown[] = [];
  const pay = defineTool({
    name: 'pay',
    description: 'Pay several payees',
    effect: 'write',
    parameters: z.object({
      payees: z.array(z.object({ account: z.string(), amount: z.number() })),
    }),
    execute: (args) => {
      paid.push(args);
      return 'paid';
    },
  });
  const pipeline = createToolPipeline({
    tools: [pay as never],
    validate: true,
    permissions: createPermissionPolicy([
      parseRule('pay(payees.account!=6222*)', 'deny', 'only accounts of our bank'),
      { effect: 'allow', tool: '*' },
    ]),
  });

  it.each([
    [[{ account: '9999000011112222', amount: 5000 }]],
    [
      [
        { account: '6222020200112233', amount: 1 },
        { account: '9999000011112222', amount: 5000 },
      ],
    ],
  ])('refuses a payment to an account outside the glob, unattended: %j', async (payees) => {
    const outcome = await pipeline.run({ id: 't', name: 'pay', input: { payees } }, run, 0);
    assert(outcome.kind === 'result');
    expect(outcome.record.decision).toBe('deny');
    expect(paid).toEqual([]);
  });

  it('lets a payment to accounts that all match run', async () => {
    const payees = [{ account: '6222020200112233', amount: 1 }];
    const outcome = await pipeline.run({ id: 't', name: 'pay', input: { payees } }, run, 0);
    assert(outcome.kind === 'result');
    expect(outcome.record.decision).toBe('allow');
    expect(paid).toEqual([{ payees }]);
  });
});
