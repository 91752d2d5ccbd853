import { HOUR_MS, MINUTE_MS, hourKey, minuteKey } from '../../lib/hour-buckets.js';

export interface BucketNames {
  minute: string;
  hour: string;
  /** The hour before. */
  previousHour: string;
}

let named = { minute: Number.NaN, names: { minute: '', hour: '', previousHour: '' } };

/**
 * The names of the minute and the hour holding `now` (lib/hour-buckets.ts), made once a minute: a check
 * names them several times, and formatting a date costs more than the rest of a check's arithmetic.
 */
export function bucketNames(now: number): BucketNames {
  const minute = Math.floor(now / MINUTE_MS);
  if (minute !== named.minute) {
    const names = { minute: minuteKey(now), hour: hourKey(now), previousHour: hourKey(now - HOUR_MS) };
    named = { minute, names };
  }
  return named.names;
}
