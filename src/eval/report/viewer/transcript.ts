import { type Attributes, el } from './dom.js';
import { amount } from './format.js';
import { type TrialDetail, textOf } from './page-data.js';

/** Past this many characters a text shows its head and a button for the rest: a megabyte of tool output stays quick to open. */
const SHOWN_CHARACTERS = 100000;

/** A text in an element; past SHOWN_CHARACTERS, its head and a button that shows the rest. */
export function longText(tag: 'pre' | 'div', attrs: Attributes, value: unknown): HTMLElement {
  const text = String(value);
  const node = el(tag, {
    ...attrs,
    text: text.length > SHOWN_CHARACTERS ? text.slice(0, SHOWN_CHARACTERS) : text,
  });
  if (text.length <= SHOWN_CHARACTERS) return node;
  const more = el('button', {
    'data-action': 'show-all',
    text: `show the other ${amount(text.length - SHOWN_CHARACTERS)} characters`,
    onclick: () => {
      node.textContent = text;
      more.remove();
    },
  });
  return el('div', null, node, more);
}

/** A transcript as the page holds it: every text itself or the number of a shared text. */
type PackedTranscript = Extract<TrialDetail, { transcript: unknown }>['transcript'];
type PackedTurn = PackedTranscript['turns'][number];
type PackedCall = Extract<PackedTurn['blocks'][number], { kind: 'tool' }>['call'];

function toolCall(call: PackedCall): HTMLElement {
  const decision = call.decision
    ? el('span', {
        cls: `badge d-${call.decision}`,
        'data-testid': 'decision',
        text: call.decision,
      })
    : el('span', { cls: 'muted', text: 'decision not traced' });
  return el(
    'div',
    { cls: 'tool', 'data-testid': 'tool-call' },
    el(
      'div',
      null,
      el('strong', { text: call.name }),
      ' ',
      decision,
      call.ms !== undefined ? el('span', { cls: 'muted', text: ` ${amount(call.ms)} ms` }) : null,
      call.isError ? el('span', { cls: 'badge o-failed', text: 'is_error' }) : null,
    ),
    el('div', { cls: 'muted', text: 'input' }),
    longText('pre', {}, textOf(call.input)),
    el('div', { cls: 'muted', text: 'result, as the model saw it' }),
    call.result === undefined
      ? el('div', { cls: 'muted', text: '(no result: the run ended here)' })
      : longText('pre', { cls: call.isError ? 'error' : '' }, textOf(call.result)),
  );
}

function turnNode(turn: PackedTurn): HTMLElement {
  const tk = turn.tokens;
  const head = `Turn ${turn.step} \u00b7 ${turn.stopReason || 'no stop reason'} \u00b7 tokens in ${amount(tk.input)} / out ${amount(tk.output)} / cache read ${amount(tk.cacheRead)} / cache write ${amount(tk.cacheWrite)} \u00b7 ${amount(turn.latencyMs)} ms (recorded)`;
  const node = el(
    'div',
    { cls: 'turn', 'data-testid': 'turn' },
    el('div', { cls: 'turn-head', text: head }),
  );
  if (turn.error) node.appendChild(longText('pre', { cls: 'error' }, turn.error));
  for (const block of turn.blocks) {
    if (block.kind === 'text')
      node.appendChild(longText('div', { cls: 'text' }, textOf(block.text)));
    else if (block.kind === 'thinking') {
      node.appendChild(
        el(
          'details',
          null,
          el('summary', { text: 'thinking' }),
          longText('pre', {}, textOf(block.text)),
        ),
      );
    } else if (block.kind === 'tool') node.appendChild(toolCall(block.call));
  }
  return node;
}

/** A conversation: system prompt, user prompt, the assistant's turns with their tool calls, the answer. */
function conversation(tr: PackedTranscript): HTMLElement {
  const box = el('div', { cls: 'conversation' });
  const system = textOf(tr.system);
  box.appendChild(
    el(
      'details',
      null,
      el('summary', { text: `System prompt (${system.length} characters)` }),
      longText('pre', {}, system),
    ),
  );
  box.appendChild(el('div', { cls: 'muted', text: 'User' }));
  box.appendChild(longText('div', { cls: 'user' }, textOf(tr.user)));
  for (const turn of tr.turns) box.appendChild(turnNode(turn));
  box.appendChild(el('div', { cls: 'muted', text: 'Final answer' }));
  box.appendChild(
    longText(
      'div',
      { cls: 'answer', 'data-testid': 'final-answer' },
      textOf(tr.finalAnswer) || '(no answer)',
    ),
  );
  return box;
}

/**
 * Transcript formats the page renders, by the name the report gives them (transcript-formats.ts
 * decodes them). A new format is one entry here: the Responses API, judge calls.
 */
const TRANSCRIPT_FORMATS: Record<string, (transcript: PackedTranscript) => HTMLElement> = {
  'anthropic-messages': conversation,
  'openai-chat-completions': conversation,
  'openai-responses': conversation,
};

/** The trial's transcript in its format; a format this page cannot show is named, with why. */
export function transcriptOf(d: TrialDetail): HTMLElement {
  if ('unavailable' in d && d.unavailable) {
    return el('p', {
      cls: 'muted',
      'data-testid': 'no-transcript',
      text: `No transcript: ${d.unavailable}`,
    });
  }
  const format = 'format' in d ? d.format : undefined;
  const render =
    format !== undefined && Object.hasOwn(TRANSCRIPT_FORMATS, format)
      ? TRANSCRIPT_FORMATS[format]
      : undefined;
  if (!('transcript' in d) || !d.transcript || !render) {
    return el(
      'div',
      { cls: 'notice', 'data-testid': 'unknown-format' },
      el('strong', { text: `this transcript format cannot be shown: ${format || 'unknown'}` }),
      'undecoded' in d && d.undecoded ? el('div', { cls: 'muted', text: d.undecoded }) : null,
      d.trace ? el('div', { cls: 'muted', text: 'What the trace recorded is below.' }) : null,
    );
  }
  return el(
    'div',
    { 'data-format': format },
    el('div', { cls: 'muted small', text: `format: ${format}` }),
    render(d.transcript),
  );
}
