/** A seeded generator (mulberry32) of numbers in [0, 1): every run draws the same values from the same seed. */
export function seededRandom(seed: number): () => number;
