import { svg } from './dom.js';

/**
 * The plots' SVG parts, drawn here (no library): every plot is an img with a title, and its
 * axes are labelled.
 */

/** A linear map from the domain [d0, d1] to the range [r0, r1]. */
export function scale(d0: number, d1: number, r0: number, r1: number): (value: number) => number {
  return (value) => r0 + ((value - d0) / (d1 - d0 || 1)) * (r1 - r0);
}

export function plotFrame(
  width: number,
  height: number,
  title: string,
  testid: string,
): SVGSVGElement {
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: 'img',
    'aria-label': title,
    'data-testid': testid,
    cls: 'plot',
  });
  root.appendChild(svg('title', { text: title }));
  return root;
}

export function line(x1: number, y1: number, x2: number, y2: number, cls: string): SVGLineElement {
  return svg('line', { x1, y1, x2, y2, cls });
}

export function svgText(
  x: number,
  y: number,
  text: string,
  cls = 'tick',
  anchor = 'middle',
): SVGTextElement {
  return svg('text', { x, y, cls, 'text-anchor': anchor, text });
}

/** Round steps (1, 2 or 5 times a power of ten) from 0 to past max. */
export function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  let step = 10 ** Math.floor(Math.log10(max / 4));
  step *= [1, 2, 5, 10].find((factor) => max / (step * factor) <= 5) ?? 10;
  const ticks: number[] = [];
  for (let value = 0; value <= max + step * 0.999; value += step) {
    ticks.push(Math.round(value * 1e6) / 1e6);
  }
  return ticks;
}

/** A figure in few characters: 1.2M, 35k, 812. */
export function short(value: number): string {
  if (value >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  return value >= 1e4 ? `${Math.round(value / 1e3)}k` : String(value);
}
