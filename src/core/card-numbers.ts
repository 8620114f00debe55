/** ASCII and full-width (U+FF10-FF19) digits. */
const DIGIT = '[0-9\\uFF10-\\uFF19]';
/** One separator between digit groups: space, dot, hyphen, no-break and other fixed spaces, full-width hyphen. */
const SEPARATOR = '[ .\\-\\u00A0\\u2007\\u202F\\u3000\\uFF0D]';
/** A card number stands alone: no letter, digit or underscore touches it (ids, hashes, base64 never match). */
const EDGE = '[0-9A-Za-z_\\uFF10-\\uFF19]';

/**
 * 12-19 digits written contiguously, or in groups (4-7 digits, then any number of 4-7 digit
 * groups, then a last group of 3-7) joined by one repeated separator: `6222 0202 0011 2233 445`,
 * `6222-0202-0011-2233-445`, `6222.0202...`. The digit count and the card rule are checked on
 * each match; a grouped run longer than 19 digits is left alone as a whole.
 */
const CARD_CANDIDATE = new RegExp(
  `(?<!${EDGE})(?:${DIGIT}{12,19}|${DIGIT}{4,7}(${SEPARATOR})(?:${DIGIT}{4,7}\\1){0,4}${DIGIT}{3,7})(?!${EDGE})`,
  'g',
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
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) digits += text[index];
    else if (code >= 0xff10 && code <= 0xff19) digits += String.fromCharCode(code - 0xff10 + 48);
  }
  return digits;
}

const CONTIGUOUS_ASCII = /^[0-9]+$/;

/**
 * Mask every card number in a text as first 4 + `****` + last 4 ASCII digits, in any common
 * written form (contiguous, spaced, dashed, dotted, no-break spaces, full-width digits):
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
