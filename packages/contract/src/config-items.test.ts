import { describe, expect, it } from 'vitest';
import { CONFIG_LIMITS, configItemInputSchema, contentByteLength } from './config-items.js';

/** UTF-8 bytes of well-formed text: each byte is one %XX of its URI encoding. */
const utf8Bytes = (text: string) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, 'x').length;

describe('contentByteLength', () => {
  it('is the UTF-8 size of the content as stored: JSON text for an object, the text itself otherwise', () => {
    const objects: Record<string, unknown>[] = [
      {},
      { a: [[]], b: {} },
      { a: 1, b: 'x"\\\n\u0001é😀\ud800', c: [1, undefined, null, true, { d: [] }], e: undefined },
      { 'ké\u2028y': -0.5e-10, n: 1e21, z: [undefined], nested: { deeper: { deepest: ['é'] } } },
    ];
    for (const content of objects) {
      expect(contentByteLength(content)).toBe(utf8Bytes(JSON.stringify(content)));
    }
    expect(contentByteLength('é😀 x')).toBe(8);
  });

  it('stops counting past the limit, and content just at it is accepted', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 70 }, (_, i) => [`o${i}`, { text: 'x'.repeat(2_000) }]),
    );
    expect(contentByteLength(wide, 10_000)).toBeGreaterThan(10_000);
    expect(contentByteLength(wide, 10_000)).toBeLessThan(utf8Bytes(JSON.stringify(wide)));
    // {"t":"…"} is 8 bytes around the text.
    const atLimit = { t: 'y'.repeat(CONFIG_LIMITS.maxContentBytes - 8) };
    const input = { name: 'n', content: atLimit };
    expect(configItemInputSchema.safeParse(input).success).toBe(true);
    const over = { name: 'n', content: { t: `${atLimit.t}y` } };
    expect(configItemInputSchema.safeParse(over).success).toBe(false);
  });
});
