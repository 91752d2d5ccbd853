import { describe, expect, it } from 'vitest';
import { jsonNestingExceeds } from './json-depth.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('jsonNestingExceeds', () => {
  it.each([
    ['{}', 1, false],
    ['{"a":{"b":[1,2,{"c":3}]}}', 4, false],
    ['{"a":{"b":[1,2,{"c":3}]}}', 3, true],
    [nested(64), 64, false],
    [nested(65), 64, true],
    [nested(100_000), 64, true],
  ])('%#: depth limit %i → %s', (text, limit, expected) => {
    expect(jsonNestingExceeds(text, limit)).toBe(expected);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestingExceeds(JSON.stringify({ s: '[[[[{{{{' }), 1)).toBe(false);
    expect(jsonNestingExceeds(JSON.stringify({ s: 'say \\"[[[[\\"', t: '"{{{' }), 1)).toBe(false);
    expect(jsonNestingExceeds('{"s":"\\\\","t":[[]]}', 2)).toBe(true);
  });
});
