import { describe, expect, it } from 'vitest';
import { seriesColor } from './chart-palette';

describe('seriesColor', () => {
  it.each([
    { index: 0, expected: 'var(--chart-1)' },
    { index: 1, expected: 'var(--chart-2)' },
    { index: 3, expected: 'var(--chart-4)' },
    { index: 4, expected: 'var(--chart-1)' },
    { index: 9, expected: 'var(--chart-2)' },
  ])('series $index is $expected', ({ index, expected }) => {
    expect(seriesColor(index)).toBe(expected);
  });
});
