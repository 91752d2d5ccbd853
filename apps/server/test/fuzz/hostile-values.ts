import fc from 'fast-check';

/**
 * Hostile values for the fuzz suite (docs/operators/security.md): what an attacker types
 * into any field. Each arbitrary mixes fixed classics with generated values.
 */

const CLASSIC_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31mred',
  '\u007f\u0085',
  '\ud800',
  'x\udfff',
  '\u202Eevil',
  'ad\u200Bmin',
  '\uFEFF',
  'line\nbreak\r\n',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '"; SELECT pg_sleep(5); --',
  '1 UNION SELECT password_hash FROM users',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '{{#each this}}{{#each this}}{{this}}{{/each}}{{/each}}',
  '{{constructor.constructor "return process"}}',
  '${7*7}',
  '../../../../etc/passwd',
  '%00',
  '%2e%2e%2f',
  '__proto__',
  'constructor',
  'prototype',
  '🚀👨\u200D💻',
  'Ω≈ç√∫',
  '0x1',
  '1e999',
  '-0',
  'NaN',
  'null',
  'true',
  '[object Object]',
];

const longString = fc.constantFrom(
  'x'.repeat(1_000),
  'y'.repeat(70_000),
  '\u0000'.repeat(5_000),
  '{'.repeat(30_000),
);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...CLASSIC_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: longString },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    -1,
    0,
    -0,
    0.5,
    -2_147_483_649,
    2_147_483_648,
    2 ** 53 + 2,
    1e308,
    -1e308,
    Number.MIN_VALUE,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Nested arrays or objects deeper than the edge allows (64) or just within it. */
const deep = fc.constantFrom(40, 63, 70, 500).map((depth) => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? [value] : { a: value };
  return value;
});

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }) },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: fc.constant(Array.from({ length: 5_000 }, (_, i) => i)) },
);

/** Whole request bodies that are not the JSON a route expects. */
export const hostileBody: fc.Arbitrary<{ payload: string | Buffer; contentType: string | undefined }> =
  fc.oneof(
    fc
      .constantFrom(
        '{"a":',
        '[',
        '['.repeat(100_000),
        '{"__proto__": {"isAdmin": true}}',
        '{"constructor": {"prototype": {"isAdmin": true}}}',
        '1e999999',
        '"just a string"',
        '[]',
        'null',
        '{"a":1,"a":2}',
        '\u0000',
        '{"events": [' + '{"type":"error"},'.repeat(2000) + '{}]}',
      )
      .map((payload) => ({ payload, contentType: 'application/json' })),
    fc.constant({
      payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      contentType: 'application/json',
    }),
    fc
      .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', undefined)
      .map((contentType) => ({ payload: 'username=admin&password=x', contentType })),
  );

/** A path segment: ids written every way but the canonical one, traversal and injection attempts. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '01',
    '0x1',
    '1e0',
    '+1',
    '%201',
    '1.0',
    '99999999999',
    '2147483648',
    'NaN',
    '%00',
    '%2e%2e',
    '..',
    "1'%20OR%20'1'%3D'1",
    '%F0%9F%98%80',
    'a'.repeat(250),
  ),
  hostileString.map((s) => encodeSegment(s.slice(0, 200))),
);

/**
 * Percent-encodes a path segment, a lone surrogate included: it goes out as the three bytes WTF-8 gives
 * it (`%ED%A0%80`), which are not UTF-8, where encodeURIComponent would throw.
 */
export function encodeSegment(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

/** Appended to every string of an otherwise valid request, so it reaches storage if nothing refuses it. */
export const taint: fc.Arbitrary<string> = fc.oneof(
  // NUL first: PostgreSQL refuses it outright, so a field that lets it through fails loudest.
  { weight: 4, arbitrary: fc.constant('\u0000') },
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      '\u0001',
      '\u001b[0m',
      '\ud800',
      '\u202E',
      'ad\u200Bmin',
      "'; --",
      '<script>',
      '{{#each this}}',
    ),
  },
);
