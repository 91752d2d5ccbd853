import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

const TTL = 5_000;

/** A cache on a clock the test moves, and a loader that counts its calls and answers with the count. */
function setup(maxEntries?: number) {
  let now = 1_000_000;
  let loads = 0;
  const cache = new TtlCache(() => now, TTL, maxEntries);
  const load = () => Promise.resolve(++loads);
  return {
    cache,
    read: (key = 'k') => cache.get(key, load),
    at: (ms: number) => {
      now = 1_000_000 + ms;
    },
  };
}

describe('TtlCache', () => {
  it.each([
    ['within the TTL', 0, 1],
    ['just before the TTL ends', TTL - 1, 1],
    ['when the TTL ends', TTL, 2],
    ['long after', 60_000, 2],
    ['after the clock stepped back', -1, 2],
  ])('a second read %s loads %s time(s) in all', async (_, later, loads) => {
    const { read, at } = setup();
    expect(await read()).toBe(1);
    at(later);
    expect(await read()).toBe(loads);
  });

  it('keeps keys apart', async () => {
    const { read } = setup();
    expect(await read('a')).toBe(1);
    expect(await read('b')).toBe(2);
    expect(await read('a')).toBe(1);
  });

  it('loads afresh after clear()', async () => {
    const { cache, read } = setup();
    await read();
    cache.clear();
    expect(await read()).toBe(2);
  });

  it('shares one load between concurrent readers', async () => {
    const { read } = setup();
    expect(await Promise.all([read(), read(), read()])).toEqual([1, 1, 1]);
  });

  it('hands out a loaded answer itself, and a promise only while it loads', async () => {
    const { read } = setup();
    const loading = read();
    expect(loading).toBeInstanceOf(Promise);
    expect(read()).toBe(loading);
    await loading;
    expect(read()).toBe(1);
  });

  it('forgets a failed load', async () => {
    const { cache, read } = setup();
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await read()).toBe(1);
  });

  it('drops the oldest keys beyond its bound', async () => {
    const { cache, read } = setup(2);
    await read('a');
    await read('b');
    await read('c');
    expect(cache.size).toBe(2);
    expect(await read('a')).toBe(4);
    expect(await read('c')).toBe(3);
  });
});
