import { describe, expect, it } from 'vitest';
import { buildExampleData, variablesUsedBy } from './example-data.js';
import type { Variable } from './variables.js';

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

describe('buildExampleData', () => {
  it('types each example by its data type and leaves out variables without one', () => {
    expect(
      buildExampleData([
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

describe('variablesUsedBy', () => {
  const catalogue = ['token_name', 'price_usd', 'holders', 'announcement', 'alert_name', 'name'].map(
    (name) => ({ variable_name: name }),
  );
  const used = (content: string) => variablesUsedBy(content, catalogue).map((v) => v.variable_name);

  it.each([
    ['<b>{{token_name}}</b> at {{formatCurrency price_usd}}', ['token_name', 'price_usd']],
    ['{{#if holders}}{{formatNumber holders}}{{/if}}', ['holders']],
    ['{{{announcement}}}', ['announcement']],
    ['{{ token_name }} {{default alert_name "none"}}', ['token_name', 'alert_name']],
    ['{{#each items}}{{name}}{{/each}}', ['name']],
    ['token_name and price_usd outside any expression', []],
    ['{{token_names}} {{xholders}}', []],
    ['', []],
  ])('%s', (content, expected) => {
    expect(used(content)).toEqual(expected);
  });
});
