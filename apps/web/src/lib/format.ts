import { dateTimeFormat } from './intl';

// Every time names its zone ("Nov 28, 2026, 9:00 AM GMT+1"): operators in several places read one log.
const dateTime = dateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});
const zoneName = dateTimeFormat(undefined, { timeZoneName: 'short' });

const zoneNamesByOffset = new Map<number, string>();

/**
 * The browser's zone as a short name ("UTC", "GMT+1") for `date`: worked out once per UTC offset the zone
 * has on the dates asked about (a list of times spans one or two), as `formatToParts` is slow on a phone.
 */
function localZone(date: Date): string {
  const offset = date.getTimezoneOffset();
  let name = zoneNamesByOffset.get(offset);
  if (name === undefined) {
    name = zoneName.formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? '';
    zoneNamesByOffset.set(offset, name);
  }
  return name;
}

/** A localized date and time in the browser's zone, named, or the fallback for a missing value. */
export function formatDateTime(value: string | null | undefined, fallback = 'Never'): string {
  if (!value) return fallback;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return fallback;
  const zone = localZone(date);
  return zone ? `${dateTime.format(date)} ${zone}` : dateTime.format(date);
}

const zonedFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A time in the IANA zone `timeZone`, with the zone named: "Mon, Nov 30, 9:00 AM, Europe/Berlin" (a
 * schedule's runs are in its own zone, whatever the browser's is). The fallback for a missing value.
 */
export function formatInZone(value: string | null | undefined, timeZone: string, fallback = 'Never'): string {
  if (!value) return fallback;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return fallback;
  let format = zonedFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(undefined, {
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZone,
      });
    } catch {
      return formatDateTime(value, fallback);
    }
    zonedFormats.set(timeZone, format);
  }
  return `${format.format(date)}, ${timeZone}`;
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

/** An instant as a datetime-local input shows it: the browser's time zone, to the minute ('' for none). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A weekday as a label shows it: 'monday' → 'Monday'. */
export function capitalised(word: string): string {
  return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
}
