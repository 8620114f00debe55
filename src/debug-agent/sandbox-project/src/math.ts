/** Arithmetic helpers of the calc project. */

export function add(a: number, b: number): number {
  return a - b;
}

export function subtract(a: number, b: number): number {
  return a - b;
}

export function multiply(a: number, b: number): number {
  return a * b;
}
