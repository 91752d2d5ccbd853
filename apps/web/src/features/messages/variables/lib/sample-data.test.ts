import type { Variable } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { buildSampleData, parseSampleData } from './sample-data';

function variable(name: string, type: Variable['data_type'], example: string | null): Variable {
  return {
    id: 1,
    variable_name: name,
    data_type: type,
    description: '',
    category: 'General',
    example_value: example,
    available_helpers: [],
  };
}

describe('buildSampleData', () => {
  it('types each example by its data type and leaves out variables without one', () => {
    expect(
      buildSampleData([
        variable('token_name', 'string', 'Pepe'),
        variable('price_usd', 'number', '0.00001234'),
        variable('holders', 'integer', '250000'),
        variable('listed', 'boolean', 'true'),
        variable('tags', 'array', '["meme","eth"]'),
        variable('timestamp', 'datetime', '2026-11-22T09:40:00Z'),
        variable('odd_number', 'number', 'many'),
        variable('missing', 'string', null),
      ]),
    ).toEqual({
      token_name: 'Pepe',
      price_usd: 0.00001234,
      holders: 250000,
      listed: true,
      tags: ['meme', 'eth'],
      timestamp: '2026-11-22T09:40:00Z',
      odd_number: 'many',
    });
  });
});

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
