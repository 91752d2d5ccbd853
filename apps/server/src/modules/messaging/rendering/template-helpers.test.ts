import { describe, expect, it } from 'vitest';
import {
  defaultValue,
  formatCurrency,
  formatNumber,
  formatPercentage,
  formatTimeAgo,
  lowercase,
  toNumber,
  truncate,
  uppercase,
} from './template-helpers.js';

const missing = [undefined, null, '', 'abc', Number.NaN, Number.POSITIVE_INFINITY, true, {}];

describe('formatNumber', () => {
  it.each([
    [1500, '1.5K'],
    [1_500_000, '1.5M'],
    [2_500_000_000, '2.5B'],
    [3_200_000_000_000, '3.2T'],
    [0, '0'],
    [-0, '0'],
    [7, '7'],
    [12.345, '12.35'],
    [999, '999'],
    [999.994, '999.99'],
    [999.995, '1K'],
    [1000, '1K'],
    [1234, '1.2K'],
    [999_949, '999.9K'],
    [999_950, '1M'],
    [999_999, '1M'],
    [1_000_000, '1M'],
    [999_999_999, '1B'],
    [-1500, '-1.5K'],
    [-999_999, '-1M'],
    [-0.001, '0'],
    ['1500', '1.5K'],
    [' 2500000 ', '2.5M'],
    ['1e6', '1M'],
  ])('%j → %j', (value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });

  it('takes the number of decimals', () => {
    expect(formatNumber(1_234_567, 2)).toBe('1.23M');
    expect(formatNumber(1_234_567, 0)).toBe('1M');
  });

  it.each(missing)('gives an empty string for %j', (value) => {
    expect(formatNumber(value)).toBe('');
  });
});

describe('formatTimeAgo', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');
  it.each([
    ['2026-11-22T11:59:30.000Z', 'just now'],
    ['2026-11-22T11:55:00.000Z', '5m ago'],
    ['2026-11-22T11:00:00.001Z', '59m ago'],
    ['2026-11-22T09:00:00.000Z', '3h ago'],
    ['2026-11-20T12:00:00.000Z', '2d ago'],
    ['2026-10-23T12:00:00.000Z', '1mo ago'],
    ['2024-11-22T12:00:00.000Z', '2y ago'],
    ['2026-11-22T12:05:00.000Z', 'in 5m'],
    [now - 3 * 3600 * 1000, '3h ago'],
    [(now - 5 * 60 * 1000) / 1000, '5m ago'],
    [String((now - 2 * 86_400_000) / 1000), '2d ago'],
    [new Date(now - 60_000), '1m ago'],
  ])('%j → %j', (value, expected) => {
    expect(formatTimeAgo(value, now)).toBe(expected);
  });

  it.each([undefined, null, '', 'not a date', {}])('gives an empty string for %j', (value) => {
    expect(formatTimeAgo(value, now)).toBe('');
  });
});

describe('formatPercentage', () => {
  it.each([
    [5.5, '+5.50%'],
    [-2, '-2.00%'],
    [0, '0.00%'],
    [-0.001, '0.00%'],
    [0.005, '+0.01%'],
    [100, '+100.00%'],
    [1234.5, '+1,234.50%'],
    ['-12.345', '-12.35%'],
  ])('%j → %j', (value, expected) => {
    expect(formatPercentage(value)).toBe(expected);
  });

  it('takes the number of decimals', () => {
    expect(formatPercentage(5.5, 0)).toBe('+6%');
    expect(formatPercentage(-2.1234, 3)).toBe('-2.123%');
  });

  it.each(missing)('gives an empty string for %j', (value) => {
    expect(formatPercentage(value)).toBe('');
  });
});

describe('formatCurrency', () => {
  it.each([
    [1234.5, '$1,234.50'],
    [0.00001234, '$0.00001234'],
    [0, '$0.00'],
    [1, '$1.00'],
    [0.5, '$0.50'],
    [0.123456, '$0.1235'],
    [0.0999999, '$0.10'],
    [0.9999999, '$1.00'],
    [1_000_000, '$1,000,000.00'],
    [999_999.999, '$1,000,000.00'],
    [-1234.5, '-$1,234.50'],
    [-0.00001234, '-$0.00001234'],
    [1e-25, '$0.00'],
    ['42', '$42.00'],
  ])('%j → %j', (value, expected) => {
    expect(formatCurrency(value)).toBe(expected);
  });

  it.each(missing)('gives an empty string for %j', (value) => {
    expect(formatCurrency(value)).toBe('');
  });
});

describe('uppercase and lowercase', () => {
  it.each([
    ['Pepe', 'PEPE', 'pepe'],
    ['straße', 'STRASSE', 'straße'],
    [42, '42', '42'],
    [undefined, '', ''],
    [null, '', ''],
  ])('%j → %j / %j', (value, upper, lower) => {
    expect(uppercase(value)).toBe(upper);
    expect(lowercase(value)).toBe(lower);
  });
});

describe('truncate', () => {
  it.each([
    ['Hello world', 5, 'Hello...'],
    ['Hello world', 6, 'Hello...'],
    ['Hello', 5, 'Hello'],
    ['Hello', 10, 'Hello'],
    ['Hello', 0, '...'],
    ['🚀🚀🚀', 2, '🚀🚀...'],
    ['x'.repeat(60), undefined, `${'x'.repeat(50)}...`],
    ['abc', 'two', 'abc'],
    [undefined, 5, ''],
    [null, 5, ''],
    [123_456, 3, '123...'],
  ])('%j to %j → %j', (value, length, expected) => {
    expect(truncate(value, length)).toBe(expected);
  });
});

describe('default', () => {
  it.each([
    [undefined, 'n/a', 'n/a'],
    [null, 'n/a', 'n/a'],
    ['', 'n/a', 'n/a'],
    [0, 'n/a', 0],
    [false, 'n/a', false],
    ['value', 'n/a', 'value'],
    [undefined, undefined, ''],
  ])('%j with %j → %j', (value, fallback, expected) => {
    expect(defaultValue(value, fallback)).toBe(expected);
  });
});

describe('toNumber', () => {
  it.each([
    [1, 1],
    ['1.5', 1.5],
    ['-2', -2],
    ['.5', 0.5],
    ['1e3', 1000],
    ['', null],
    ['1,000', null],
    ['12abc', null],
    [null, null],
    [Number.NaN, null],
  ])('%j → %j', (value, expected) => {
    expect(toNumber(value)).toBe(expected);
  });
});
