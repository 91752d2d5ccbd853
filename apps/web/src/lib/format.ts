const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A localized date and time, or the fallback for a missing value. */
export function formatDateTime(value: string | null | undefined, fallback = 'Never'): string {
  if (!value) return fallback;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? fallback : dateTime.format(date);
}

const currencyByDigits = new Map<number, Intl.NumberFormat>();
/** A US-dollar formatter with at least 2 and at most `digits` decimals, made once per precision. */
function usdWith(digits: number): Intl.NumberFormat {
  let format = currencyByDigits.get(digits);
  if (!format) {
    format = new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 2,
      maximumFractionDigits: digits,
    });
    currencyByDigits.set(digits, format);
  }
  return format;
}

/**
 * Money in US dollars, the one money format of the console: 2 decimals ($12.26, $0.50), and below $1
 * as many as its first two significant digits need ($0.075, $0.0042), so a small LLM cost never reads
 * as $0.00.
 */
export function formatCurrency(value: number): string {
  const size = Math.abs(value);
  const digits = size === 0 || size >= 1 ? 2 : Math.min(8, Math.max(2, 1 - Math.floor(Math.log10(size))));
  return usdWith(digits).format(value);
}
