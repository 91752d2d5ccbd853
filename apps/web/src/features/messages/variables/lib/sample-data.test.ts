import { describe, expect, it } from 'vitest';
import { parseSampleData } from './sample-data';

describe('parseSampleData', () => {
  it.each([
    ['{"a": 1}', { a: 1 }],
    ['{}', {}],
    ['{"a": ', null],
    ['[1, 2]', null],
    ['null', null],
    ['"text"', null],
  ])('%s', (text, expected) => {
    expect(parseSampleData(text)).toEqual(expected);
  });
});
