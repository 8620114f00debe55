/**
 * DOM and SVG builders that put every recorded text in through textContent or an attribute
 * value, never as markup: `text` is the node's text, `cls` its class, `onclick` a listener.
 */

type Value = string | number | boolean | null | undefined;
export type Attributes = {
  [name: string]: Value | ((event: MouseEvent) => void);
} | null;
/** Children: a node, a text, or nothing (null, undefined or false are left out). */
export type Child = Node | string | null | undefined | false;

const SVG_NS = 'http://www.w3.org/2000/svg';

function fill<T extends Element>(node: T, attrs: Attributes, children: readonly Child[]): T {
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') node.addEventListener('click', value as EventListener);
    else if (key === 'text') node.textContent = String(value);
    else if (key === 'cls') node.setAttribute('class', String(value));
    else node.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attributes,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  return fill(document.createElement(tag), attrs, children);
}

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attributes,
  ...children: Child[]
): SVGElementTagNameMap[K] {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear<T extends Node>(node: T): T {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** A table cell: a text, a node, or empty. */
export type Cell = string | Node | null | undefined;

/** A table of texts and nodes; the columns at `numeric` are right-aligned figures. */
export function table(
  head: readonly string[],
  rows: ReadonlyArray<readonly Cell[]>,
  numeric: readonly number[] | null,
  testid?: string,
): HTMLTableElement {
  const headRow = el('tr', null, ...head.map((text) => el('th', { text })));
  const body = el('tbody', null, ...rows.map((row) => tableRow(row, numeric)));
  return el('table', { 'data-testid': testid }, el('thead', null, headRow), body);
}

function tableRow(row: readonly Cell[], numeric: readonly number[] | null): HTMLTableRowElement {
  const tr = el('tr', null);
  row.forEach((cell, at) => {
    const td = el('td', numeric?.includes(at) ? { cls: 'num' } : null);
    if (typeof cell === 'string') td.textContent = cell;
    else if (cell) td.appendChild(cell);
    tr.appendChild(td);
  });
  return tr;
}

/** An outcome as a coloured badge. */
export function badge(outcome: string): HTMLSpanElement {
  return el('span', { cls: `badge o-${outcome}`, text: outcome });
}
