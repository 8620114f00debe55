import { defineModelScript } from 'harness-evals';

/**
 * An offline model for the helpdesk agent: `npm run record -- --simulated` records fixtures
 * with it, no API key needed. A function from the request to the next turn (tool calls,
 * then text); `random` is seeded per task, variant and trial, so trials can differ.
 * For a fixed conversation, give turns as data instead:
 *   defineModelScript({ turns: [{ toolCalls: [{ name: 'get_ticket', input: { ticket_id: 'TCK-101' } }] },
 *                              { text: 'TCK-101 is open: waiting for parts.' }] })
 */
export const helpdeskModel = defineModelScript({
  name: 'helpdesk',
  respond: (request, random) => {
    const ticket = /TCK-\d{3}/.exec(request.prompt)?.[0];
    if (!ticket) return { text: 'Which ticket do you mean? Ticket ids look like TCK-101.' };
    const lookup = request.toolResults.find((call) => call.name === 'get_ticket');
    if (!lookup) return { toolCalls: [{ name: 'get_ticket', input: { ticket_id: ticket } }] };
    if (!lookup.result) return undefined;
    const found = JSON.parse(lookup.result.text) as { status?: string; note?: string };
    if (!found.status) return { text: `Ticket ${ticket} does not exist; please check the id.` };
    const opening = random.chance('friendly', 0.5) ? 'Thanks for checking in. ' : '';
    return { text: `${opening}Ticket ${ticket} is ${found.status}: ${found.note}.` };
  },
});
