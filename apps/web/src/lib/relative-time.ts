import { relativeTimeFormat } from './intl';

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];
const WITH_SECONDS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [...UNITS, ['second', 1]];

const relative = relativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });

/**
 * '5 min. ago', 'yesterday', 'now' in the reader's language; with `seconds` (an alert's changes are seconds
 * apart) also '40 sec. ago'. Empty for a value that is not a date.
 */
export function formatRelativeTime(
  value: string,
  now: number = Date.now(),
  options: { seconds?: boolean } = {},
): string {
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return '';
  const seconds = (time - now) / 1000;
  for (const [unit, size] of options.seconds ? WITH_SECONDS : UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(0, 'second');
}
