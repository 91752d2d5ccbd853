import { numberFormat } from '@/lib/intl';

const whole = numberFormat(undefined, { maximumFractionDigits: 0 });
const compact = numberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const percent = numberFormat(undefined, { maximumFractionDigits: 1 });

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
