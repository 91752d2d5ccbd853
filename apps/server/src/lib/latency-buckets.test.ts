import { describe, expect, it } from 'vitest';
import {
  bucketValue,
  LATENCY_ALPHA,
  LATENCY_FLOOR_BUCKET,
  latencyBucket,
  mergeInto,
  quantile,
  quantiles,
} from './latency-buckets.js';
import { seededRandom } from '@lumi/test-support/seeded-random';

function normal(next: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

/** The nearest-rank percentile: the smallest value with at least ⌈q·n⌉ values at or below it. */
function exact(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!;
}

function histogramOf(values: number[]): Map<number, number> {
  return mergeInto(
    new Map(),
    values.map((v) => [latencyBucket(v), 1] as const),
  );
}

const QS = [0.5, 0.95, 0.99];

const distributions: [string, (next: () => number) => number[]][] = [
  ['uniform 0-5000 ms', (next) => Array.from({ length: 20_000 }, () => next() * 5000)],
  ['lognormal around 800 ms', (next) => Array.from({ length: 20_000 }, () => 800 * Math.exp(normal(next)))],
  [
    'heavy tail (Pareto, α 1.1)',
    (next) => Array.from({ length: 20_000 }, () => Math.min(86_400_000, 50 / (1 - next()) ** (1 / 1.1))),
  ],
  ['constant 250 ms', () => Array.from({ length: 1000 }, () => 250)],
  ['a single value', () => [1234.5]],
  ['two values', () => [3, 40_000]],
  ['sub-millisecond and the 24 h maximum', (next) => [0.02, 0.5, 86_400_000, ...[1, 2].map(() => next())]],
];

describe('latency buckets', () => {
  it.each(distributions)('estimates p50, p95 and p99 of %s within α', (_name, make) => {
    const values = make(seededRandom(17));
    const histogram = histogramOf(values);
    for (const q of QS) {
      const truth = exact(values, q);
      const estimate = quantile(histogram, q)!;
      expect(Math.abs(estimate - truth) / truth, `q ${q}: ${estimate} vs ${truth}`).toBeLessThanOrEqual(
        LATENCY_ALPHA + 1e-9,
      );
    }
  });

  it('merges histograms as if the values had been counted together', () => {
    const next = seededRandom(5);
    const hours = Array.from({ length: 6 }, (_, h) =>
      Array.from({ length: 3000 }, () => (h + 1) * 100 * Math.exp(normal(next))),
    );
    const merged = new Map<number, number>();
    for (const hour of hours) mergeInto(merged, histogramOf(hour));
    const all = hours.flat();
    expect(quantiles(merged, QS)).toEqual(quantiles(histogramOf(all), QS));
    for (const q of QS) {
      expect(Math.abs(quantile(merged, q)! - exact(all, q)) / exact(all, q)).toBeLessThanOrEqual(
        LATENCY_ALPHA,
      );
    }
  });

  it('counts 0 ms and latencies of at most 10 µs as 0 ms', () => {
    expect(latencyBucket(0)).toBe(LATENCY_FLOOR_BUCKET);
    expect(latencyBucket(0.01)).toBe(LATENCY_FLOOR_BUCKET);
    expect(latencyBucket(0.0101)).toBeGreaterThan(LATENCY_FLOOR_BUCKET);
    expect(bucketValue(LATENCY_FLOOR_BUCKET)).toBe(0);
    expect(quantile([[LATENCY_FLOOR_BUCKET, 3]], 0.5)).toBe(0);
  });

  it('keeps the 24 h maximum within a few hundred buckets', () => {
    expect(latencyBucket(86_400_000) - LATENCY_FLOOR_BUCKET).toBeLessThan(600);
  });

  it('answers null for an empty histogram and takes the first value for a tiny q', () => {
    expect(quantile([], 0.5)).toBeNull();
    expect(quantiles(new Map(), QS)).toEqual([null, null, null]);
    const histogram = histogramOf([10, 20, 30]);
    expect(quantile(histogram, 0.001)).toBeCloseTo(10, -0.5);
    expect(quantile(histogram, 1)).toBeCloseTo(30, -0.5);
  });
});
