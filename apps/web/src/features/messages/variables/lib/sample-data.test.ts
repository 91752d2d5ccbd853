import { describe, expect, it } from 'vitest';
import { jsonProblem, parseSampleData } from './sample-data';

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

describe('jsonProblem', () => {
  it('says why a text is not a JSON object', () => {
    expect(jsonProblem('{"a": 1}')).toBeNull();
    expect(jsonProblem('{ "announcement": "TEST"')).toMatch(/^Not valid JSON: /);
    expect(jsonProblem('[1]')).toBe(
      'The sample data must be a JSON object, such as { "token_name": "Pepe" }',
    );
  });
});
