/**
 * The viewer's trial pane: the trial's header, its assertion or stale diff, its transcript
 * through a registry of formats, and its trace. A format the registry does not know is named,
 * never shown as an empty transcript.
 */
export const VIEWER_TRANSCRIPT = String.raw`
/** Past this many characters a text shows its head and a button for the rest: a megabyte of tool output stays quick to open. */
var SHOWN_CHARACTERS = 100000;
function longText(tag, attrs, text) {
  text = String(text);
  attrs.text = text.length > SHOWN_CHARACTERS ? text.slice(0, SHOWN_CHARACTERS) : text;
  var node = el(tag, attrs);
  if (text.length <= SHOWN_CHARACTERS) return node;
  var more = el('button', { 'data-action': 'show-all', text: 'show the other ' + amount(text.length - SHOWN_CHARACTERS) + ' characters',
    onclick: function () { node.textContent = text; more.parentNode.removeChild(more); } });
  return el('div', null, node, more);
}

function toolCall(call) {
  var decision = call.decision ? el('span', { cls: 'badge d-' + call.decision, 'data-testid': 'decision', text: call.decision })
    : el('span', { cls: 'muted', text: 'decision not traced' });
  return el('div', { cls: 'tool', 'data-testid': 'tool-call' },
    el('div', null, el('strong', { text: call.name }), ' ', decision,
      call.ms !== undefined ? el('span', { cls: 'muted', text: ' ' + amount(call.ms) + ' ms' }) : null,
      call.isError ? el('span', { cls: 'badge o-failed', text: 'is_error' }) : null),
    el('div', { cls: 'muted', text: 'input' }), longText('pre', {}, textOf(call.input)),
    el('div', { cls: 'muted', text: 'result, as the model saw it' }),
    call.result === undefined ? el('div', { cls: 'muted', text: '(no result: the run ended here)' }) :
      longText('pre', { cls: call.isError ? 'error' : '' }, textOf(call.result)));
}

/** A conversation: system prompt, user prompt, the assistant's turns with their tool calls, the answer. */
function conversation(tr) {
  var box = el('div', { cls: 'conversation' });
  var system = textOf(tr.system);
  box.appendChild(el('details', null, el('summary', { text: 'System prompt (' + system.length + ' characters)' }), longText('pre', {}, system)));
  box.appendChild(el('div', { cls: 'muted', text: 'User' }));
  box.appendChild(longText('div', { cls: 'user' }, textOf(tr.user)));
  tr.turns.forEach(function (turn) {
    var tk = turn.tokens;
    var node = el('div', { cls: 'turn', 'data-testid': 'turn' }, el('div', { cls: 'turn-head', text: 'Turn ' + turn.step +
      ' \u00b7 ' + (turn.stopReason || 'no stop reason') + ' \u00b7 tokens in ' + amount(tk.input) + ' / out ' + amount(tk.output) +
      ' / cache read ' + amount(tk.cacheRead) + ' / cache write ' + amount(tk.cacheWrite) + ' \u00b7 ' + amount(turn.latencyMs) + ' ms (recorded)' }));
    if (turn.error) node.appendChild(longText('pre', { cls: 'error' }, turn.error));
    turn.blocks.forEach(function (block) {
      if (block.kind === 'text') node.appendChild(longText('div', { cls: 'text' }, textOf(block.text)));
      else if (block.kind === 'thinking') node.appendChild(el('details', null, el('summary', { text: 'thinking' }), longText('pre', {}, textOf(block.text))));
      else if (block.kind === 'tool') node.appendChild(toolCall(block.call));
    });
    box.appendChild(node);
  });
  box.appendChild(el('div', { cls: 'muted', text: 'Final answer' }));
  box.appendChild(longText('div', { cls: 'answer', 'data-testid': 'final-answer' }, textOf(tr.finalAnswer) || '(no answer)'));
  return box;
}

/**
 * Transcript formats the page renders, by the name the report gives them (transcript-formats.ts
 * decodes them). A new format is one entry here: the Responses API, judge calls.
 */
var TRANSCRIPT_FORMATS = {
  'anthropic-messages': conversation,
  'openai-chat-completions': conversation,
  'openai-responses': conversation
};

function transcriptOf(d) {
  if (d.unavailable) return el('p', { cls: 'muted', 'data-testid': 'no-transcript', text: 'No transcript: ' + d.unavailable });
  var render = d.transcript && Object.prototype.hasOwnProperty.call(TRANSCRIPT_FORMATS, d.format) ? TRANSCRIPT_FORMATS[d.format] : null;
  if (!render) {
    return el('div', { cls: 'notice', 'data-testid': 'unknown-format' },
      el('strong', { text: 'this transcript format cannot be shown: ' + (d.format || 'unknown') }),
      d.undecoded ? el('div', { cls: 'muted', text: d.undecoded }) : null,
      d.trace ? el('div', { cls: 'muted', text: 'What the trace recorded is below.' }) : null);
  }
  return el('div', { 'data-format': d.format }, el('div', { cls: 'muted small', text: 'format: ' + d.format }), render(d.transcript));
}

var TRACE_LINES = {
  run_start: function (event) { return 'variant ' + event.variant + ' \u00b7 model ' + event.model + ' \u00b7 mode ' + event.mode; },
  model_call: function (event) { return (event.role ? event.role + ' \u00b7 ' : '') + (event.stop_reason || 'no stop reason') + ' \u00b7 tokens in ' +
    amount(event.input_tokens) + ' / out ' + amount(event.output_tokens) + ' \u00b7 ' + amount(event.ms) + ' ms'; },
  tool_call: function (event) { return event.tool + ' \u00b7 ' + event.decision + (event.is_error ? ' \u00b7 is_error' : '') +
    ' \u00b7 ' + amount(event.ms) + ' ms \u00b7 result ' + amount(event.result_chars) + ' characters'; },
  run_end: function (event) { return event.status + (event.detail ? ': ' + event.detail : ''); }
};
function traceLine(event) {
  var text = Object.prototype.hasOwnProperty.call(TRACE_LINES, event.type) ? TRACE_LINES[event.type](event) : null;
  var rest = {};
  for (var key in event) if (key !== 'type' && key !== 'input') rest[key] = event[key];
  return el('tr', { 'data-testid': 'trace-event' }, el('td', { text: String(event.type) }), el('td', { cls: 'num', text: event.step === undefined ? '' : String(event.step) }),
    el('td', null, text !== null ? text : JSON.stringify(rest), event.input !== undefined ? longText('pre', {}, event.input) : null));
}
/** The run's trace events; for an adapter, the tool calls it reported (no results: adapters report none). */
function traceOf(d, open) {
  if (!d.trace) return null;
  var adapter = d.trace.some(function (e) { return e.type === 'run_start' && e.mode === 'adapter'; });
  var body = el('tbody', null);
  d.trace.forEach(function (event) { body.appendChild(traceLine(event)); });
  return el('details', { cls: 'trace', 'data-testid': 'trace', open: open ? 'open' : null },
    el('summary', { text: (adapter ? 'Adapter trace: tool calls as the adapter reported them' : 'Trace') + ' (' + d.trace.length + ' events)' }),
    el('table', null, el('thead', null, el('tr', null, el('th', { text: 'event' }), el('th', { text: 'step' }), el('th', { text: '' }))), body));
}

/** The case's expected answer, as the record gives it (text, or indented JSON). */
function expectedOf(d) {
  if (d.expected === undefined) return null;
  return el('div', { cls: 'message', 'data-testid': 'expected' }, el('strong', { text: 'Expected' + (d.case ? ' (case ' + d.case + ')' : '') }),
    longText('pre', {}, d.expected));
}

/** Each judged check's verdict and votes, then every sample's: its label and score, its reason or error. */
function judgeVotesOf(d) {
  if (!d.judgments || !d.judgments.length) return null;
  var box = el('div', { cls: 'message', 'data-testid': 'judge-votes' }, el('strong', { text: 'Judge votes' }));
  d.judgments.forEach(function (j) {
    box.appendChild(el('div', { text: j.check + ': ' + j.verdict + ' (' + j.votes.pass + ' pass, ' + j.votes.fail + ' fail; mean score ' + rate(j.score) + ', threshold ' + rate(j.threshold) + ')' }));
    var list = el('ul', null);
    j.samples.forEach(function (s) {
      var vote = s.error ? 'error: ' + s.error : (s.label || NONE) + (s.score === undefined ? '' : ' ' + rate(s.score)) + (s.reasoning ? ' (' + s.reasoning + ')' : '');
      list.appendChild(el('li', { text: s.model + ' #' + s.sample + ': ' + vote }));
    });
    box.appendChild(list);
  });
  return box;
}

/** What two compared trials can differ in, each kind matched by position: texts, tool calls, the answer. */
var COMPARED = ['[data-testid="assertion"] pre', '[data-testid="expected"] pre', '.user', '.turn .text', '.tool', '[data-testid="final-answer"]'];
/** Mark (class "differs") each part of one pane whose text is not the other pane's at the same place. */
function markDifferences(left, right) {
  COMPARED.forEach(function (selector) {
    var a = left.querySelectorAll(selector), b = right.querySelectorAll(selector);
    for (var at = 0; at < Math.max(a.length, b.length); at += 1) {
      if (a[at] && b[at] && a[at].textContent === b[at].textContent) continue;
      if (a[at]) a[at].classList.add('differs');
      if (b[at]) b[at].classList.add('differs');
    }
  });
}

function trialPane(i, actions) {
  var t = trials[i];
  var pane = el('article', { cls: 'pane', 'data-testid': 'transcript', 'data-trial': label(t) });
  var head = el('div', { cls: 'pane-head' }, el('h2', null, label(t) + ' ', badge(t.outcome)),
    el('a', { href: '#trial=' + keyOf(t), 'data-testid': 'link', title: 'a link to this trial', text: 'link' }));
  (actions || []).forEach(function (action) { if (action) head.appendChild(action); });
  pane.appendChild(head);
  var d = detailOf(i);
  if (!d) { pane.appendChild(el('p', { cls: 'muted', 'data-testid': 'loading', text: 'Loading this trial\u2019s transcript\u2026' })); return pane; }
  pane.appendChild(el('div', { cls: 'muted meta', text: [d.title, d.source ? 'fixtures: ' + d.source : '', d.model ? 'model: ' + d.model : '', d.cost ? 'cost: ' + d.cost : '',
    d.status ? 'stop: ' + d.status : '', d.fixture || '', d.tracePath || ''].filter(Boolean).join(' \u00b7 ') }));
  if ((t.outcome === 'failed' || t.outcome === 'errored' || t.outcome === 'judge_error') && d.messages.length) {
    pane.appendChild(el('div', { cls: 'message', 'data-testid': 'assertion' }, el('strong', { text: t.outcome === 'failed' ? 'Assertion' : t.outcome === 'judge_error' ? 'Judge error' : 'Error' }),
      longText('pre', {}, d.messages.join('\n\n'))));
  }
  if (t.outcome === 'stale' || t.outcome === 'missing') {
    pane.appendChild(el('div', { cls: 'stale-box', 'data-testid': 'stale' }, el('strong', { text: t.outcome === 'stale' ? 'Stale fixture: where the request diverged' : 'Missing fixture' }),
      longText('pre', {}, d.messages.join('\n\n')),
      d.rerecordCommand ? el('div', null, 'Re-record with: ', el('code', { text: d.rerecordCommand })) : null));
  }
  var expected = expectedOf(d);
  if (expected) pane.appendChild(expected);
  var votes = judgeVotesOf(d);
  if (votes) pane.appendChild(votes);
  var transcript = transcriptOf(d);
  pane.appendChild(transcript);
  var trace = traceOf(d, transcript.getAttribute('data-testid') === 'unknown-format');
  if (trace) pane.appendChild(trace);
  return pane;
}
`;
