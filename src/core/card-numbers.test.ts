import { describe, expect, it } from 'vitest';
import { isCardNumber, maskCardNumber, passesLuhn } from './card-numbers.js';

const CARD = '6222020200112233445';
const MASKED = '6222****3445';

describe('maskCardNumber', () => {
  it.each([
    ['contiguous', CARD],
    ['spaced', '6222 0202 0011 2233 445'],
    ['dashed', '6222-0202-0011-2233-445'],
    ['dotted', '6222.0202.0011.2233.445'],
    ['no-break spaces (U+00A0)', '6222\u00a00202\u00a00011\u00a02233\u00a0445'],
    ['narrow no-break spaces (U+202F)', '6222\u202f0202\u202f0011\u202f2233\u202f445'],
    ['full-width digits', '６２２２０２０２００１１２２３３４４５'],
    [
      'full-width digits, ideographic spaces',
      '６２２２\u3000０２０２\u3000００１１\u3000２２３３\u3000４４５',
    ],
    ['tabs', '6222\t0202\t0011\t2233\t445'],
    ['slashes', '6222/0202/0011/2233/445'],
    ['thin spaces (U+2009)', '6222\u20090202\u20090011\u20092233\u2009445'],
    ['hair spaces (U+200A)', '6222\u200a0202\u200a0011\u200a2233\u200a445'],
    ['en dashes (U+2013)', '6222\u20130202\u20130011\u20132233\u2013445'],
    ['em dashes (U+2014)', '6222\u20140202\u20140011\u20142233\u2014445'],
    ['minus signs (U+2212)', '6222\u22120202\u22120011\u22122233\u2212445'],
    ['line breaks', '6222\n0202\n0011\n2233\n445'],
    ['Arabic-Indic digits', '٦٢٢٢٠٢٠٢٠٠١١٢٢٣٣٤٤٥'],
    ['Devanagari digits, spaced', '६२२२ ०२०२ ००११ २२३३ ४४५'],
    ['mathematical bold digits', '𝟔𝟐𝟐𝟐𝟎𝟐𝟎𝟐𝟎𝟎𝟏𝟏𝟐𝟐𝟑𝟑𝟒𝟒𝟓'],
    ['mixed scripts', '62٢٢0٢0٢0011223344٥'],
  ])('masks the card written %s as first 4 + **** + last 4', (_, written) => {
    expect(maskCardNumber(`card ${written} was declined`)).toBe(`card ${MASKED} was declined`);
  });

  it('masks Luhn-valid cards of other issuers, contiguous or grouped', () => {
    expect(
      maskCardNumber('visa 4111 1111 1111 1111, amex 3782-822463-10005, mc 5555555555554444'),
    ).toBe('visa 4111****1111, amex 3782****0005, mc 5555****4444');
  });

  it('keeps the masked output of the committed fixtures byte for byte', () => {
    const result = `{"order_id":"ORD1001","refund_account":"${CARD}","amount":428}`;
    expect(maskCardNumber(result)).toBe(
      `{"order_id":"ORD1001","refund_account":"${MASKED}","amount":428}`,
    );
    expect(maskCardNumber(MASKED)).toBe(MASKED);
  });

  it.each([
    ['an order number that fails Luhn', 'order 553012345678 shipped'],
    ['the 12-digit id of the hostile-input report', 'order_id 123456789012'],
    ['a timestamp in ms', 'updated 1727712000007'],
    ['a phone number', 'call 13800138000'],
    ['a date, an amount and an order id', 'refund 1200.50 on 2026-09-15 for ORD1001'],
    ['an IPv4 address', 'host 192.168.100.200'],
    ['digits inside an id or a hash', `toolu_${CARD} sha 4111111111111111abc`],
    ['a run longer than 19 digits', 'trace 41111111111111111111'],
    ['a grouped run longer than 19 digits', '4111 1111 1111 1111 1111 1111'],
    ['groups joined by different separators', '4111 1111-1111.1111'],
    ['groups joined by two characters', '4111 - 1111 - 1111 - 1111'],
    ['a date with slashes', 'due 2026/09/15, 2026/09/22'],
    ['Arabic-Indic digits touching other digits', '٦٢٢٢٠٢٠٢٠٠١١٢٢٣٣٤٤٥1'],
  ])('leaves %s alone', (_, text) => {
    expect(maskCardNumber(text)).toBe(text);
  });
});

describe('isCardNumber', () => {
  it('takes 12-19 digits with an issuer digit 2-6 that pass Luhn or start with UnionPay 62', () => {
    expect(passesLuhn(CARD)).toBe(false);
    expect(isCardNumber(CARD)).toBe(true);
    expect(isCardNumber('4111111111111111')).toBe(true);
    expect(isCardNumber('4111111111111112')).toBe(false);
    expect(isCardNumber('1111111111111117')).toBe(false);
    expect(isCardNumber('62220202001')).toBe(false);
    expect(isCardNumber('62220202001122334455')).toBe(false);
  });
});
