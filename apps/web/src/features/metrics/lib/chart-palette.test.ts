import { describe, expect, it } from 'vitest';
import { seriesColor, seriesSlots } from './chart-palette';

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

describe('seriesSlots', () => {
  const models = ['gemini-1.5-pro', 'gemini-1.5-flash', 'gemini-pro-vision', 'text-embedding-004'];

  it('gives each name the same slot whatever the order of the rows', () => {
    expect(seriesSlots(models)).toEqual(seriesSlots([...models].reverse()));
  });

  it('gives names shown together different slots while there are colours left', () => {
    const slots = seriesSlots(models);
    expect(new Set(slots.values()).size).toBe(models.length);
  });

  it('reuses the colours only beyond the size of the palette', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const counts = new Map<number, number>();
    for (const slot of seriesSlots(names).values()) counts.set(slot, (counts.get(slot) ?? 0) + 1);
    expect([...counts.values()]).toEqual([2, 2, 2, 2]);
  });
});
