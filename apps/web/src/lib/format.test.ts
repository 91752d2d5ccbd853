import { describe, expect, it } from 'vitest';
import { formatCurrency } from './format';

describe('formatCurrency', () => {
  it.each([
    { value: 0, expected: '$0.00' },
    { value: 12.2631, expected: '$12.26' },
    { value: 1234.5, expected: '$1,234.50' },
    { value: 1, expected: '$1.00' },
    { value: 0.5, expected: '$0.50' },
    { value: 0.123, expected: '$0.12' },
    { value: 0.075, expected: '$0.075' },
    { value: 0.0384, expected: '$0.038' },
    { value: 0.00423, expected: '$0.0042' },
    { value: 0.999, expected: '$1.00' },
    { value: 0.0999, expected: '$0.10' },
  ])('$value reads $expected', ({ value, expected }) => {
    expect(formatCurrency(value)).toBe(expected);
  });
});
