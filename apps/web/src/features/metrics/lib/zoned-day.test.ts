import { describe, expect, it } from 'vitest';
import { zonedDay, zonedDayStart } from './zoned-day';

describe('zonedDay', () => {
  it('starts a day at the zone’s midnight', () => {
    expect(new Date(zonedDayStart('2026-11-20', 'UTC')).toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(new Date(zonedDayStart('2026-11-20', 'Asia/Kolkata')).toISOString()).toBe(
      '2026-11-19T18:30:00.000Z',
    );
    expect(new Date(zonedDayStart('2026-11-20', 'America/New_York')).toISOString()).toBe(
      '2026-11-20T05:00:00.000Z',
    );
  });

  it('is 23 or 25 hours long on the days the offset changes', () => {
    const spring = zonedDay('2026-03-29', 'Europe/Berlin');
    expect((spring.to - spring.from) / 3_600_000).toBe(23);
    const autumn = zonedDay('2026-10-25', 'Europe/Berlin');
    expect((autumn.to - autumn.from) / 3_600_000).toBe(25);
    expect(new Date(autumn.from).toISOString()).toBe('2026-10-24T22:00:00.000Z');
  });
});
