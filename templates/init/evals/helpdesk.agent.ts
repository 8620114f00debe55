import {
  buildSystemPrompt,
  createPermissionPolicy,
  defineAgent,
  defineTool,
  type Harness,
  loadInstructionFiles,
  parseRule,
  z,
} from 'harness-evals';
import { helpdeskModel } from './helpdesk.model.js';

/** Example data: replace the tools with your agent's own. */
const TICKETS: Record<string, { status: string; note: string }> = {
  'TCK-101': { status: 'open', note: 'waiting for parts from the supplier' },
  'TCK-102': { status: 'resolved', note: 'replacement shipped' },
};

const ticketId = z
  .string()
  .regex(/^TCK-\d{3}$/)
  .describe('Ticket id, for example TCK-101');

const getTicket = defineTool({
  name: 'get_ticket',
  description: 'Look up a support ticket: its status and the latest note.',
  effect: 'read',
  parameters: z.object({ ticket_id: ticketId }),
  execute: ({ ticket_id }) =>
    JSON.stringify(TICKETS[ticket_id] ?? { error: `ticket ${ticket_id} does not exist` }),
});

const closeTicket = defineTool({
  name: 'close_ticket',
  description: 'Close a support ticket.',
  effect: 'write',
  parameters: z.object({ ticket_id: ticketId, reason: z.string() }),
  execute: ({ ticket_id }) => `ticket ${ticket_id} closed`,
});

const ROLE = 'You are a helpdesk assistant. Look tickets up before you answer; never guess.';

/**
 * The agent under test, as two harness variants around the same model and tools:
 * `baseline` runs whatever the model asks; `upgraded` validates arguments and applies
 * permission rules (a write asks first, and unattended evals refuse it).
 */
export const helpdesk = defineAgent({
  suite: 'helpdesk',
  variants: ['baseline', 'upgraded'],
  mode: 'unattended',
  // The offline model `npm run record -- --simulated` serves this agent.
  modelScript: helpdeskModel,
  createHarness: (variant, { projectDir }): Harness => {
    const instructionFiles = loadInstructionFiles(projectDir, ['AGENTS.md']);
    const base: Harness = {
      name: variant,
      tools: [getTicket, closeTicket],
      system: ({ clock, mode }) =>
        buildSystemPrompt({ role: ROLE, instructionFiles, clock, mode }).text,
      limits: { maxSteps: 6 },
    };
    if (variant === 'baseline') return base;
    return {
      ...base,
      validate: true,
      permissions: createPermissionPolicy([
        parseRule('get_*', 'allow'),
        parseRule('close_ticket', 'ask', 'closing a ticket is a write'),
      ]),
    };
  },
});
