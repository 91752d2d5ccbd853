import { describe, expect, it } from 'vitest';
import { grown } from './typed-arrays.js';

describe('grown', () => {
  it('keeps the values and their kind of array, and doubles by default', () => {
    const ints = grown(Int32Array.of(1, -2, 3));
    expect(ints).toBeInstanceOf(Int32Array);
    expect([...ints]).toEqual([1, -2, 3, 0, 0, 0]);
    const doubles = grown(Float64Array.of(0.5));
    expect(doubles).toBeInstanceOf(Float64Array);
    expect([...doubles]).toEqual([0.5, 0]);
  });

  it('takes a larger length when asked, never less than twice, and fills only the new places', () => {
    expect(grown(Uint8Array.of(7, 8), 5).length).toBe(5);
    expect(grown(Uint8Array.of(7, 8), 3).length).toBe(4);
    expect([...grown(Int32Array.of(4, 0), 4, -1)]).toEqual([4, 0, -1, -1]);
  });
});
