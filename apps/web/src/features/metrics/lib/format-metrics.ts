const whole = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const percent = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const usd = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

/** A count with digit grouping: 12,345. */
export function formatCount(value: number): string {
  return whole.format(value);
}

/** A count for a chart axis: 12K. */
export function formatCompact(value: number): string {
  return compact.format(value);
}

/** A share in percent with at most one decimal: 85.2%. */
export function formatPercent(value: number): string {
  return `${percent.format(value)}%`;
}

/** Money in US dollars; small LLM costs keep up to four decimals. */
export function formatUsd(value: number): string {
  return usd.format(value);
}
