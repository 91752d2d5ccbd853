/** The p-th percentile of ascending `sorted` by nearest rank (rounding down), as the bench's parts print it. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
