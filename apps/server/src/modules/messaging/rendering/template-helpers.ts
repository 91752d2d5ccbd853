import type { TemplateHelperName } from '@lumi/contract';

/**
 * The template helpers (spec section 2, "Messages (/messages)"), as plain functions. A missing value
 * (undefined, null, '' or text that is not a number where one is needed) gives '' so `default` can supply a
 * fallback: `{{default (formatNumber holders) "n/a"}}`.
 */

const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && NUMERIC_TEXT.test(value.trim())) return Number(value.trim());
  return null;
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function toText(value: unknown): string {
  if (isMissing(value)) return '';
  if (typeof value === 'object') return JSON.stringify(value) ?? '';
  return String(value);
}

/** A rounded number without '-0'. */
function rounded(value: number, decimals: number): number {
  const result = Number(value.toFixed(decimals));
  return Object.is(result, -0) ? 0 : result;
}

function decimalsArgument(value: unknown, fallback: number): number {
  const n = toNumber(value);
  return n === null ? fallback : Math.min(Math.max(Math.trunc(n), 0), 10);
}

const SUFFIXES = [
  { value: 1e3, suffix: 'K' },
  { value: 1e6, suffix: 'M' },
  { value: 1e9, suffix: 'B' },
  { value: 1e12, suffix: 'T' },
] as const;

/**
 * K/M/B/T suffixes with one decimal (1500 → '1.5K', 1500000 → '1.5M', 2500000000 → '2.5B'); below 1,000
 * the number itself with up to two decimals. A value that rounds up to 1,000 of one unit takes the next:
 * 999,999 → '1M', not '1000K'.
 */
export function formatNumber(value: unknown, decimals: unknown = 1): string {
  const n = toNumber(value);
  if (n === null) return '';
  const places = decimalsArgument(decimals, 1);
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  const format = (v: number, max: number) =>
    new Intl.NumberFormat('en-US', { maximumFractionDigits: max }).format(v);

  const small = rounded(abs, 2);
  if (small < 1000) return small === 0 ? '0' : `${sign}${format(small, 2)}`;
  let scaled = 0;
  let suffix = '';
  for (const unit of SUFFIXES) {
    scaled = rounded(abs / unit.value, places);
    suffix = unit.suffix;
    if (scaled < 1000) break;
  }
  return `${sign}${format(scaled, places)}${suffix}`;
}

/** Seconds since 1970 for numbers below 10^11 (until the year 5138), milliseconds above. */
function toTime(value: unknown): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  const n = toNumber(value);
  if (n !== null) return Math.abs(n) < 1e11 ? n * 1000 : n;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

/** '5m ago', '3h ago', '2d ago' ('just now' under a minute, then months and years; 'in 5m' ahead). */
export function formatTimeAgo(value: unknown, now: number = Date.now()): string {
  const time = toTime(value);
  if (time === null) return '';
  const seconds = Math.floor(Math.abs(now - time) / 1000);
  if (seconds < 60) return 'just now';
  const days = Math.floor(seconds / 86_400);
  const span =
    seconds < 3600
      ? `${Math.floor(seconds / 60)}m`
      : seconds < 86_400
        ? `${Math.floor(seconds / 3600)}h`
        : days < 30
          ? `${days}d`
          : days < 365
            ? `${Math.floor(days / 30)}mo`
            : `${Math.floor(days / 365)}y`;
  return time <= now ? `${span} ago` : `in ${span}`;
}

/** A sign and two decimals: 5.5 → '+5.50%', -2 → '-2.00%', 0 → '0.00%'. */
export function formatPercentage(value: unknown, decimals: unknown = 2): string {
  const n = toNumber(value);
  if (n === null) return '';
  const places = decimalsArgument(decimals, 2);
  const r = rounded(n, places);
  const digits = new Intl.NumberFormat('en-US', {
    minimumFractionDigits: places,
    maximumFractionDigits: places,
  }).format(Math.abs(r));
  return `${r > 0 ? '+' : r < 0 ? '-' : ''}${digits}%`;
}

/**
 * US dollars: two decimals from $1 up (1234.5 → '$1,234.50'); below $1 four significant digits, so tiny
 * token prices stay readable (0.00001234 → '$0.00001234', 0.5 → '$0.50').
 */
export function formatCurrency(value: unknown): string {
  const n = toNumber(value);
  if (n === null) return '';
  const abs = Math.abs(n);
  let digits: string;
  if (abs >= 1 || abs === 0) {
    digits = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
      abs,
    );
  } else {
    const places = Math.min(Math.max(3 - Math.floor(Math.log10(abs)), 2), 20);
    digits = abs.toFixed(places).replace(/(\.\d\d\d*?)0+$/, '$1');
  }
  const sign = n < 0 && Number(digits.replaceAll(',', '')) !== 0 ? '-' : '';
  return `${sign}$${digits}`;
}

export function uppercase(value: unknown): string {
  return toText(value).toUpperCase();
}

export function lowercase(value: unknown): string {
  return toText(value).toLowerCase();
}

export const TRUNCATE_DEFAULT_LENGTH = 50;

/** The first `length` characters and '...' when the text was longer (whole characters, emoji intact). */
export function truncate(value: unknown, length: unknown = TRUNCATE_DEFAULT_LENGTH): string {
  const text = toText(value);
  const n = toNumber(length);
  const max = n === null ? TRUNCATE_DEFAULT_LENGTH : Math.max(Math.trunc(n), 0);
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('').trimEnd()}...`;
}

/** The value, or the fallback when the value is missing or empty. */
export function defaultValue(value: unknown, fallback: unknown = ''): unknown {
  return isMissing(value) ? fallback : value;
}

/**
 * The helpers as Handlebars calls them: the arguments, then Handlebars' options object, which is dropped.
 * `now` is injectable so formatTimeAgo can be tested.
 */
export function templateHelpers(
  now: () => number = Date.now,
): Record<TemplateHelperName, (...args: unknown[]) => unknown> {
  const args = (all: unknown[]) => all.slice(0, -1);
  return {
    formatNumber: (...all) => formatNumber(...(args(all) as [unknown, unknown?])),
    formatTimeAgo: (...all) => formatTimeAgo(args(all)[0], now()),
    formatPercentage: (...all) => formatPercentage(...(args(all) as [unknown, unknown?])),
    formatCurrency: (...all) => formatCurrency(args(all)[0]),
    uppercase: (...all) => uppercase(args(all)[0]),
    lowercase: (...all) => lowercase(args(all)[0]),
    truncate: (...all) => truncate(...(args(all) as [unknown, unknown?])),
    default: (...all) => defaultValue(...(args(all) as [unknown, unknown?])),
  };
}
