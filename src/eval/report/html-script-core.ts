/**
 * The viewer's shared helpers: the embedded data, DOM and SVG builders that put every recorded
 * text in through textContent or an attribute value (never as markup), and number formats.
 * Plain browser JavaScript, concatenated into the page's one script (html-script.ts).
 */
export const VIEWER_CORE = String.raw`
var model = JSON.parse(document.getElementById('report-model').textContent);
var trials = model.trials;
var NONE = '\u2014';
var SVG_NS = 'http://www.w3.org/2000/svg';

function fill(node, attrs, children) {
  for (var key in attrs || {}) {
    var value = attrs[key];
    if (value === null || value === undefined || value === false) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'cls') node.setAttribute('class', value);
    else if (key === 'onclick') node.addEventListener('click', value);
    else node.setAttribute(key, String(value));
  }
  for (var i = 0; i < children.length; i++) {
    var child = children[i];
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}
function el(tag, attrs) {
  return fill(document.createElement(tag), attrs, Array.prototype.slice.call(arguments, 2));
}
function svg(tag, attrs) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, Array.prototype.slice.call(arguments, 2));
}
function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

function rate(value) { return value === null || value === undefined ? NONE : value.toFixed(2); }
function amount(value) { return value === null || value === undefined ? NONE : Math.round(value).toLocaleString('en-US'); }
function mean(value) { return value === null || value === undefined ? NONE : value.toFixed(1); }
function unique(values) { return values.filter(function (v, i) { return values.indexOf(v) === i; }); }

function label(t) { return t.task + ' ' + t.variant + (t.case ? ' case ' + t.case : '') + ' trial ' + t.trial; }
function badge(outcome) { return el('span', { cls: 'badge o-' + outcome, text: outcome }); }
/** A trial's address in the URL hash: its suite, task, variant and number, each URI-encoded. */
function keyOf(t) { return [t.suite, t.task, t.variant].concat(t.case ? [t.case] : [], [String(t.trial)]).map(encodeURIComponent).join('/'); }
var byKey = new Map(trials.map(function (t, i) { return [keyOf(t), i]; }));

function table(head, rows, numeric, testid) {
  var tr = el('tr', null);
  head.forEach(function (h) { tr.appendChild(el('th', { text: h })); });
  var body = el('tbody', null);
  rows.forEach(function (row) { body.appendChild(tableRow(row, numeric)); });
  return el('table', { 'data-testid': testid }, el('thead', null, tr), body);
}
function tableRow(row, numeric) {
  var tr = el('tr', null);
  row.forEach(function (cell, i) {
    var td = el('td', numeric && numeric.indexOf(i) >= 0 ? { cls: 'num' } : null);
    if (typeof cell === 'string') td.textContent = cell; else if (cell) td.appendChild(cell);
    tr.appendChild(td);
  });
  return tr;
}

// Each trial's details are parsed when it is opened; a few stay parsed for going back and forth.
var parsed = new Map();
var PARSED_KEPT = 32;
/** The trial's details, or null while the parser has not reached them yet. */
function detailOf(i) {
  if (parsed.has(i)) return parsed.get(i);
  var node = document.getElementById('trial-' + i);
  if (!node) return null;
  var value = JSON.parse(node.textContent);
  parsed.set(i, value);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value);
  return value;
}
var sharedTexts = null;
/** A text of a transcript: itself, or (a number) the shared text it stands for. */
function textOf(value) {
  if (typeof value !== 'number') return value;
  if (!sharedTexts) sharedTexts = JSON.parse(document.getElementById('report-texts').textContent);
  return sharedTexts[value];
}

/** The order variants take everywhere (colours, rows): as in the scores. */
var variants = unique(model.rows.map(function (r) { return r.variant; }));
function variantClass(variant) { return 'v' + (variants.indexOf(variant) % 6); }
`;
