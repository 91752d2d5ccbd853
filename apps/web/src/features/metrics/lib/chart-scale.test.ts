import { describe, expect, it } from 'vitest';
import { countTicks, fittedLabels } from './chart-scale';

describe('fittedLabels', () => {
  it('keeps every label that fits, and every n-th counted from the newest when they do not', () => {
    const hours = Array.from({ length: 24 }, (_, i) => i);
    expect(fittedLabels(hours, 24 * 72, 72)).toEqual(hours);
    expect(fittedLabels(hours, 6 * 72, 72)).toEqual([3, 7, 11, 15, 19, 23]);
    expect(fittedLabels(hours, 10, 72)).toEqual([23]);
    expect(fittedLabels([], 600, 72)).toEqual([]);
  });
});

describe('countTicks', () => {
  it('steps by 1, 2, 2.5 or 5 times a power of ten up to at least the largest value', () => {
    expect(countTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(countTicks(9)).toEqual([0, 5, 10]);
    expect(countTicks(37_000)).toEqual([0, 10_000, 20_000, 30_000, 40_000]);
    expect(countTicks(41_000)).toEqual([0, 20_000, 40_000, 60_000]);
    expect(countTicks(90)).toEqual([0, 25, 50, 75, 100]);
  });

  it('never steps by a fraction, and gives an axis of zeros a scale', () => {
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(1)).toEqual([0, 1]);
  });
});
