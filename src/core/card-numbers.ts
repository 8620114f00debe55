/** A decimal digit of any script: ASCII, full-width, Arabic-Indic, Devanagari, ... (Unicode Nd). */
const DIGIT = '\\p{Nd}';
/**
 * One separator between digit groups: any whitespace (space, tab, line break, no-break, thin,
 * hair, figure and ideographic spaces), a dot, a slash, any dash (hyphen, en and em dashes,
 * full-width hyphen: Unicode Pd) or the minus sign (U+2212).
 */
const SEPARATOR = '[\\s./\\p{Pd}\\u2212]';
/** A card number stands alone: no ASCII letter, digit of any script or underscore touches it. */
const EDGE = '[A-Za-z_\\p{Nd}]';

/**
 * 12-19 digits written contiguously, or in groups (4-7 digits, then any number of 4-7 digit
 * groups, then a last group of 3-7) joined by one repeated separator: `6222 0202 0011 2233 445`,
 * `6222-0202-0011-2233-445`, `6222/0202/...`, `6222\t0202...`. The digit count and the card rule
 * are checked on each match; a grouped run longer than 19 digits is left alone as a whole, and so
 * are groups joined by different separators.
 */
const CARD_CANDIDATE = new RegExp(
  `(?<!${EDGE})(?:${DIGIT}{12,19}|${DIGIT}{4,7}(${SEPARATOR})(?:${DIGIT}{4,7}\\1){0,4}${DIGIT}{3,7})(?!${EDGE})`,
  'gu',
);

/**
 * The card rule for 12-19 ASCII digits: an issuer digit 2-6 (Mastercard 2-series and Mir, Amex,
 * JCB and Diners, Visa, Mastercard, Discover, UnionPay, Maestro) and either a valid Luhn check
 * digit or the UnionPay IIN 62 (UnionPay numbers often fail Luhn, the refund desk's
 * 6222020200112233445 does). Timestamps in ms (17...), phone numbers and most ids fail it.
 */
export function isCardNumber(digits: string): boolean {
  if (digits.length < 12 || digits.length > 19) return false;
  const first = digits.charCodeAt(0) - 48;
  if (first < 2 || first > 6) return false;
  return digits.startsWith('62') || passesLuhn(digits);
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index--) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The digits of a candidate as ASCII, separators dropped (the common contiguous case is returned as is). */
function asciiDigits(text: string): string {
  if (text.length <= 19 && CONTIGUOUS_ASCII.test(text)) return text;
  let digits = '';
  for (const character of text) {
    const value = digitValue(character.codePointAt(0)!);
    if (value !== undefined) digits += String(value);
  }
  return digits;
}

const CONTIGUOUS_ASCII = /^[0-9]+$/;
const IS_DIGIT = /^\p{Nd}$/u;
const digitValues = new Map<number, number | undefined>();

/**
 * The value of a decimal digit of any script. Unicode keeps each script's digits 0-9 in
 * consecutive code points, and runs of them back to back (the mathematical digits), so the
 * value is the distance from the start of the run, modulo 10.
 */
function digitValue(code: number): number | undefined {
  if (code >= 48 && code <= 57) return code - 48;
  if (digitValues.has(code)) return digitValues.get(code);
  let value: number | undefined;
  if (IS_DIGIT.test(String.fromCodePoint(code))) {
    let start = code;
    while (IS_DIGIT.test(String.fromCodePoint(start - 1))) start--;
    value = (code - start) % 10;
  }
  digitValues.set(code, value);
  return value;
}

/**
 * Mask every card number in a text as first 4 + `****` + last 4 ASCII digits, in any common
 * written form (contiguous; grouped by spaces of any width, tabs, dashes of any length, dots or
 * slashes; in the digits of any script):
 * `card 6222 0202 0011 2233 445` -> `card 6222****3445`. Never throws.
 */
export function maskCardNumber(text: string): string {
  return text.replace(CARD_CANDIDATE, (candidate) => {
    const digits = asciiDigits(candidate);
    return isCardNumber(digits) ? `${digits.slice(0, 4)}****${digits.slice(-4)}` : candidate;
  });
}

/** A JSON number that would print as a card number, e.g. 4111111111111111. */
export function isCardShapedNumber(value: number): boolean {
  return Number.isInteger(value) && value >= 1e11 && value < 1e19 && isCardNumber(String(value));
}
