/**
 * Every n-th of `candidates`, counted from the last (the newest is always labelled), as many as fit `width`
 * when one label and the gap after it take `labelWidth` CSS pixels. Choosing by width instead of measuring
 * each label's text keeps a chart's first render free of forced layouts (docs/benchmarks.md, "The first
 * signed-in load").
 */
export function fittedLabels<T>(candidates: readonly T[], width: number, labelWidth: number): T[] {
  const fit = Math.max(1, Math.floor(width / labelWidth));
  const step = Math.max(1, Math.ceil(candidates.length / fit));
  return candidates.filter((_, i) => (candidates.length - 1 - i) % step === 0);
}

/** The steps an axis of whole counts may take, times a power of ten: 1, 2, 2.5 (from 10 up), 5. */
const STEPS = [1, 2, 2.5, 5, 10];

/**
 * The ticks of a count axis from 0 to at least `max`: at most `count` of them, a round step apart (1, 2, 2.5
 * or 5 times a power of ten, never a fraction), the last at or above `max`. An axis of zeros still has a
 * step, so its bars sit on a visible scale.
 */
export function countTicks(max: number, count = 5): number[] {
  const raw = Math.max(max, 1) / (count - 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = STEPS.map((m) => m * magnitude).find((s) => s >= raw && Number.isInteger(s)) ?? 10 * magnitude;
  const last = Math.max(1, Math.ceil(Math.max(max, 1) / step));
  return Array.from({ length: last + 1 }, (_, i) => i * step);
}
