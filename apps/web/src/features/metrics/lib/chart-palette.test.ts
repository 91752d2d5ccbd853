import { describe, expect, it } from 'vitest';
import { CHART_SERIES_COLORS, seriesColor, seriesSlots, seriesStroke } from './chart-palette';

describe('seriesColor', () => {
  it.each([
    { index: 0, expected: 'var(--chart-1)' },
    { index: 1, expected: 'var(--chart-2)' },
    { index: 3, expected: 'var(--chart-4)' },
    { index: 4, expected: 'var(--chart-5)' },
    { index: 7, expected: 'var(--chart-8)' },
    { index: 8, expected: 'var(--chart-1)' },
    { index: 9, expected: 'var(--chart-2)' },
  ])('series $index is $expected', ({ index, expected }) => {
    expect(seriesColor(index)).toBe(expected);
  });
});

describe('seriesSlots', () => {
  const models = ['gemini-1.5-pro', 'gemini-1.5-flash', 'gemini-pro-vision', 'text-embedding-004'];
  const sixModels = [
    'gemini/gemini-1.5-pro',
    'gemini/gemini-1.5-flash',
    'gemini/gemini-2.0-flash',
    'openai/gpt-4o',
    'openai/gpt-4o-mini',
    'anthropic/claude-3-5-sonnet',
  ];
  const specColors = CHART_SERIES_COLORS.slice(0, 4);

  it('gives each name the same slot whatever the order of the rows', () => {
    expect(seriesSlots(models)).toEqual(seriesSlots([...models].reverse()));
    expect(seriesSlots(sixModels)).toEqual(seriesSlots([...sixModels].reverse()));
  });

  it('keeps up to four names to the spec’s four colours, one each', () => {
    const colors = [...seriesSlots(models).values()].map(seriesColor);
    expect(new Set(colors).size).toBe(models.length);
    for (const color of colors) expect(specColors).toContain(color);
  });

  it('tells six series apart by colour, not only by dash pattern', () => {
    const strokes = [...seriesSlots(sixModels).values()].map(seriesStroke);
    expect(new Set(strokes.map((stroke) => stroke.stroke)).size).toBe(6);
    expect(new Set(strokes.map((stroke) => stroke.strokeDasharray)).size).toBe(6);
    // The first four names in alphabetical order keep the spec's colours; the other two take new ones.
    const slots = seriesSlots(sixModels);
    const sorted = [...sixModels].sort();
    for (const name of sorted.slice(0, 4)) expect(specColors).toContain(seriesColor(slots.get(name)!));
    for (const name of sorted.slice(4)) expect(specColors).not.toContain(seriesColor(slots.get(name)!));
  });

  it('reuses the colours only beyond the size of the palette', () => {
    const count = (names: string[]) => {
      const counts = new Map<number, number>();
      for (const slot of seriesSlots(names).values()) counts.set(slot, (counts.get(slot) ?? 0) + 1);
      return [...counts.values()];
    };
    const letters = 'abcdefghijklmnop'.split('');
    expect(count(letters.slice(0, 8))).toEqual(Array(8).fill(1));
    expect(count(letters)).toEqual(Array(8).fill(2));
  });
});
