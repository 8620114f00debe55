import { defineJudgeScript, defineModelScript } from 'harness-evals';

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

/**
 * An offline judge for the example's judged check (`clear-status`): it reads the answer the
 * way the rubric asks, so the judge's calls record with no key. With a key, the real judge
 * model (`--judge-model`, default claude-sonnet-5) grades instead.
 */
export const helpdeskJudge = defineJudgeScript({
  name: 'helpdesk-judge',
  respond: ({ answer }) => {
    const criteria = [
      /\b(open|resolved|closed|pending)\b/i.test(answer),
      /waiting|next|shipped/i.test(answer),
      !/stupid|obviously|not my problem/i.test(answer),
    ];
    const met = criteria.filter(Boolean).length;
    return {
      label: met === criteria.length ? 'pass' : 'fail',
      score: met / criteria.length,
      reasoning: `${met} of ${criteria.length} criteria met`,
    };
  },
});
