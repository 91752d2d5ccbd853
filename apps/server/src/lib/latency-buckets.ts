/**
 * Mergeable latency histograms (docs/operators/metrics.md, "Latency percentiles"): fixed logarithmic buckets
 * after the DDSketch scheme (Masson, Rim and Lee, "DDSketch: a fast and fully-mergeable quantile sketch with
 * relative-error guarantees", VLDB 2019). Bucket i holds the latencies in (γ^(i-1), γ^i] milliseconds and
 * is estimated by 2·γ^i/(γ+1), which is within α of every latency in it. The buckets are the same for
 * every hour, provider and model, so histograms merge by adding counts per bucket: a percentile of any
 * range is read from the hourly rollups alone.
 */

/** Relative accuracy of every percentile (docs/operators/metrics.md, "Latency percentiles"). */
export const LATENCY_ALPHA = 0.02;

const GAMMA = (1 + LATENCY_ALPHA) / (1 - LATENCY_ALPHA);
const LN_GAMMA = Math.log(GAMMA);

/** Latencies at or below this (10 µs) are counted as 0 ms: the bound holds above it. */
export const LATENCY_MIN_MS = 0.01;

/** The bucket of latencies at or below LATENCY_MIN_MS; below every other bucket. */
export const LATENCY_FLOOR_BUCKET = Math.ceil(Math.log(LATENCY_MIN_MS) / LN_GAMMA) - 1;

/** The bucket holding a latency in milliseconds. */
export function latencyBucket(ms: number): number {
  if (!(ms > LATENCY_MIN_MS)) return LATENCY_FLOOR_BUCKET;
  return Math.ceil(Math.log(ms) / LN_GAMMA);
}

/** The latency a bucket stands for (ms): the value with the least relative error to all it holds. */
export function bucketValue(bucket: number): number {
  if (bucket <= LATENCY_FLOOR_BUCKET) return 0;
  return (2 * Math.exp(bucket * LN_GAMMA)) / (GAMMA + 1);
}

/** A histogram: (bucket, count) pairs in any order, a bucket possibly more than once (merged on read). */
export type LatencyHistogram = Iterable<readonly [bucket: number, count: number]>;

/** Adds `histogram` into `into` (bucket → count). */
export function mergeInto(into: Map<number, number>, histogram: LatencyHistogram): Map<number, number> {
  for (const [bucket, count] of histogram) into.set(bucket, (into.get(bucket) ?? 0) + count);
  return into;
}

/**
 * The q-quantile (0 < q <= 1) by nearest rank: the estimate of the smallest latency with at least
 * ⌈q·n⌉ of the n latencies at or below it. That latency lies in the bucket returned, so the estimate is
 * within α of the exact nearest-rank percentile. Null for an empty histogram.
 */
export function quantile(histogram: LatencyHistogram, q: number): number | null {
  const merged = [...mergeInto(new Map(), histogram)].sort(([a], [b]) => a - b);
  return quantilesOfSorted(merged, [q])[0]!;
}

/** Several quantiles at once, in the order of `qs`, from one sort of the buckets. */
export function quantiles(histogram: LatencyHistogram, qs: readonly number[]): (number | null)[] {
  const merged = [...mergeInto(new Map(), histogram)].sort(([a], [b]) => a - b);
  return quantilesOfSorted(merged, qs);
}

function quantilesOfSorted(sorted: [number, number][], qs: readonly number[]): (number | null)[] {
  const total = sorted.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return qs.map(() => null);
  return qs.map((q) => {
    const rank = Math.max(1, Math.ceil(q * total));
    let seen = 0;
    for (const [bucket, count] of sorted) {
      seen += count;
      if (seen >= rank) return bucketValue(bucket);
    }
    return bucketValue(sorted.at(-1)![0]);
  });
}
