/**
 * A seeded generator (mulberry32, https://gist.github.com/tommyettinger/46a874533244883189143505d203312c)
 * of numbers in [0, 1): every run draws the same values from the same seed.
 */
export function seededRandom(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
