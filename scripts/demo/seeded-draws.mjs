// The simulated bot's random draws (simulated-bot.mjs): generators seeded by a name (a slot, an hour, a
// day), so the same name always draws the same numbers, and the distributions drawn from them.
import { seededRandom } from '@lumi/test-support/seeded-random';

/** FNV-1a of a text: the seed of a slot, an hour or a day. */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export const seeded = (name) => seededRandom(hash(`lumi-demo:${name}`));
export const between = (random, [low, high]) => low + (high - low) * random();
export const integer = (random, range) => Math.round(between(random, range));
export const pick = (random, items) => items[Math.floor(random() * items.length)];

/** Poisson-distributed count with mean `mean` (Knuth; the means here are small). */
export function poisson(random, mean) {
  const limit = Math.exp(-mean);
  let count = 0;
  let product = random();
  while (product > limit) {
    count += 1;
    product *= random();
  }
  return count;
}

/** Draws an entry by its `share`. */
export function weighted(random, entries) {
  let roll = random() * entries.reduce((sum, e) => sum + e.share, 0);
  for (const entry of entries) {
    roll -= entry.share;
    if (roll < 0) return entry;
  }
  return entries.at(-1);
}

/** The cumulative Zipf weights 1/rank^exponent of ranks 1..n, for drawing a rank with one random number. */
export function zipfTable(n, exponent) {
  const weights = Array.from({ length: n }, (_, rank) => 1 / (rank + 1) ** exponent);
  const total = weights.reduce((sum, w) => sum + w, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
}

/** The rank (0-based) whose cumulative weight first reaches `roll`. */
export function zipfRank(table, roll) {
  let low = 0;
  let high = table.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (table[mid] < roll) low = mid + 1;
    else high = mid;
  }
  return low;
}
