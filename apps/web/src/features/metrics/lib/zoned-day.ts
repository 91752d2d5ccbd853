/**
 * The instants a calendar day of an IANA time zone starts and ends: the usage panel's days are days of
 * LUMI_TIMEZONE (docs/operators/metrics.md, "Days and time zones"), whatever the browser's own zone.
 */
function offsetMs(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const local = Date.UTC(
    value('year'),
    value('month') - 1,
    value('day'),
    value('hour'),
    value('minute'),
    value('second'),
  );
  return local - Math.floor(at / 1000) * 1000;
}

/** The first instant of `date` (YYYY-MM-DD) in `zone`, as epoch milliseconds. */
export function zonedDayStart(date: string, zone: string): number {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  const midnight = Date.UTC(year, month - 1, day);
  // The offset at the guess, then at the corrected instant: right across a change of offset that day.
  const first = midnight - offsetMs(zone, midnight);
  return midnight - offsetMs(zone, first);
}

/** [start, end) of `date` in `zone`; a day with a change of offset is 23 or 25 hours long. */
export function zonedDay(date: string, zone: string): { from: number; to: number } {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  const next = new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
  return { from: zonedDayStart(date, zone), to: zonedDayStart(next, zone) };
}
