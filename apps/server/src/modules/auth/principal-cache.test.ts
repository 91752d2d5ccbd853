import { describe, expect, it } from 'vitest';
import { PrincipalCache } from './principal-cache.js';

function clockAt(start: number) {
  const clock = { t: start, now: () => clock.t };
  return clock;
}

describe('PrincipalCache', () => {
  it('keeps a principal for the TTL at most', () => {
    const clock = clockAt(1_000);
    const cache = new PrincipalCache<string>(clock.now, 5_000);
    cache.set('token', 'alice', Number.MAX_SAFE_INTEGER, cache.begin());
    expect(cache.get('token')).toBe('alice');
    clock.t = 5_999;
    expect(cache.get('token')).toBe('alice');
    clock.t = 6_000;
    expect(cache.get('token')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('never keeps a principal past the expiry it is given (token or session)', () => {
    const clock = clockAt(1_000);
    const cache = new PrincipalCache<string>(clock.now, 5_000);
    cache.set('token', 'alice', 2_500, cache.begin());
    clock.t = 2_499;
    expect(cache.get('token')).toBe('alice');
    clock.t = 2_500;
    expect(cache.get('token')).toBeUndefined();
    cache.set('expired', 'bob', 2_500, cache.begin());
    expect(cache.get('expired')).toBeUndefined();
  });

  it('forgets everything on invalidate()', () => {
    const cache = new PrincipalCache<string>(() => 0, 5_000);
    cache.set('a', 'alice', 10_000, cache.begin());
    cache.set('b', 'bob', 10_000, cache.begin());
    cache.invalidate();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
  });

  it('does not store a lookup that started before an invalidation', () => {
    const cache = new PrincipalCache<string>(() => 0, 5_000);
    const generation = cache.begin();
    cache.invalidate(); // e.g. the user was deactivated while the lookup read the old row
    cache.set('a', 'alice', 10_000, generation);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 'alice', 10_000, cache.begin());
    expect(cache.get('a')).toBe('alice');
  });

  it('stores nothing when the TTL is 0 (turned off)', () => {
    const cache = new PrincipalCache<string>(() => 0, 0);
    cache.set('a', 'alice', 10_000, cache.begin());
    expect(cache.get('a')).toBeUndefined();
  });

  it('treats a clock stepped backwards as expired', () => {
    const clock = clockAt(10_000);
    const cache = new PrincipalCache<string>(clock.now, 5_000);
    cache.set('a', 'alice', 100_000, cache.begin());
    clock.t = 9_000;
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the oldest tokens beyond its size', () => {
    const cache = new PrincipalCache<string>(() => 0, 5_000, 2);
    for (const token of ['a', 'b', 'c']) cache.set(token, token, 10_000, cache.begin());
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBe('c');
  });
});
