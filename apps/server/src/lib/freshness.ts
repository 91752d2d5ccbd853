/**
 * How far behind a feed is, as the Market Data panel shows it (docs/operators/configuration.md,
 * "Telemetry and metrics": `current` within the limit, otherwise a readable text such as
 * `stale (12 min behind)`).
 */
export function describeLag(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  if (s < 120 * 60) return `${Math.floor(s / 60)} min`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86400)} days`;
}

export function dataFreshness(lastCandleMs: number, now: number, freshSeconds: number): string {
  const lagSeconds = (now - lastCandleMs) / 1000;
  return lagSeconds <= freshSeconds ? 'current' : `stale (${describeLag(lagSeconds)} behind)`;
}
