import { describe, expect, it } from 'vitest';
import { addDays, firstHourOfLocalDate, lastLocalDays, localDate, startOfLocalDate } from './zoned-days.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('local days', () => {
  it.each([
    ['2026-11-20T04:59:59.999Z', 'America/New_York', '2026-11-19'],
    ['2026-11-20T05:00:00.000Z', 'America/New_York', '2026-11-20'],
    ['2026-11-19T18:29:59.999Z', 'Asia/Kolkata', '2026-11-19'],
    ['2026-11-19T18:30:00.000Z', 'Asia/Kolkata', '2026-11-20'],
    ['2026-11-20T23:59:59.999Z', 'UTC', '2026-11-20'],
    ['2026-11-20T10:59:59.999Z', 'Pacific/Kiritimati', '2026-11-21'],
  ])('%s is on %s in %s', (time, zone, date) => {
    expect(localDate(at(time), zone)).toBe(date);
  });

  it.each([
    // Whole-hour offsets, in and out of daylight-saving time.
    ['2026-11-20', 'UTC', '2026-11-20T00:00:00.000Z'],
    ['2026-11-20', 'America/New_York', '2026-11-20T05:00:00.000Z'],
    ['2026-07-01', 'America/New_York', '2026-07-01T04:00:00.000Z'],
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z'], // the spring-forward day
    ['2026-03-09', 'America/New_York', '2026-03-09T04:00:00.000Z'],
    ['2026-11-20', 'Europe/Berlin', '2026-11-19T23:00:00.000Z'],
    // Offsets that are not whole hours.
    ['2026-11-20', 'Asia/Kolkata', '2026-11-19T18:30:00.000Z'],
    ['2026-11-20', 'Asia/Kathmandu', '2026-11-19T18:15:00.000Z'],
    ['2026-11-20', 'America/St_Johns', '2026-11-20T03:30:00.000Z'],
    ['2026-11-20', 'Pacific/Chatham', '2026-11-19T10:15:00.000Z'],
    // Midnight does not exist: clocks go from 23:59:59 to 01:00 (Santiago, first Sunday of September).
    ['2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z'],
  ])('%s begins in %s at %s', (date, zone, start) => {
    expect(iso(startOfLocalDate(date, zone))).toBe(start);
    expect(localDate(startOfLocalDate(date, zone), zone)).toBe(date);
    expect(localDate(startOfLocalDate(date, zone) - 1, zone)).toBe(addDays(date, -1));
  });

  it('answers instants asked in turn right, across midnight and a daylight-saving change', () => {
    // Each call may reuse the span of the day found before; the edges must still fall on the right day.
    const asked = [
      ['2026-03-07T12:00:00.000Z', '2026-03-07'],
      ['2026-03-08T04:59:59.999Z', '2026-03-07'],
      ['2026-03-08T05:00:00.000Z', '2026-03-08'],
      ['2026-03-09T03:59:59.999Z', '2026-03-08'], // 23 hours later: the day had one hour less
      ['2026-03-09T04:00:00.000Z', '2026-03-09'],
      ['2026-03-07T12:00:00.000Z', '2026-03-07'], // backwards again
    ] as const;
    for (const [time, date] of asked) expect(localDate(at(time), 'America/New_York'), time).toBe(date);
  });

  it('maps a day onto the UTC hour holding its start', () => {
    expect(iso(firstHourOfLocalDate('2026-11-20', 'Asia/Kolkata'))).toBe('2026-11-19T18:00:00.000Z');
    expect(iso(firstHourOfLocalDate('2026-11-20', 'America/New_York'))).toBe('2026-11-20T05:00:00.000Z');
  });

  it('adds calendar days across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-11-20', -29)).toBe('2026-10-22');
  });

  it('lists the last n local days as adjoining ranges of hours', () => {
    const days = lastLocalDays(at('2026-03-09T15:00:00.000Z'), 3, 'America/New_York');
    expect(days.map((d) => [d.date, iso(d.from), iso(d.to)])).toEqual([
      ['2026-03-07', '2026-03-07T05:00:00.000Z', '2026-03-08T05:00:00.000Z'],
      ['2026-03-08', '2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z'], // 23 hours
      ['2026-03-09', '2026-03-09T04:00:00.000Z', '2026-03-10T04:00:00.000Z'],
    ]);
    expect(lastLocalDays(at('2026-11-20T12:00:00.000Z'), 30, 'UTC')).toHaveLength(30);
  });
});
