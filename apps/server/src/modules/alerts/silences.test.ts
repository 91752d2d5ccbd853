import { describe, expect, it } from 'vitest';
import { isSilenced, silenceStatus, type SilenceWindow } from './silences.js';

const once = (fields: Partial<SilenceWindow> = {}): SilenceWindow => ({
  kind: 'once',
  rule_id: null,
  severity: null,
  starts_at: '2026-11-20T12:00:00.000Z',
  ends_at: '2026-11-20T14:00:00.000Z',
  weekdays: null,
  start_time: null,
  duration_minutes: null,
  timezone: null,
  created_at: '2026-11-20T10:00:00.000Z',
  ...fields,
});

const recurring = (fields: Partial<SilenceWindow> = {}): SilenceWindow => ({
  kind: 'recurring',
  rule_id: null,
  severity: null,
  starts_at: null,
  ends_at: null,
  weekdays: ['sunday'],
  start_time: '02:00',
  duration_minutes: 60,
  timezone: 'UTC',
  created_at: '2026-01-01T00:00:00.000Z',
  ...fields,
});

const t = (iso: string) => Date.parse(iso);

describe('silence status', () => {
  it.each([
    ['before its start', '2026-11-20T11:59:59.999Z', 'scheduled', '2026-11-20T12:00:00.000Z'],
    ['at its start', '2026-11-20T12:00:00.000Z', 'active', '2026-11-20T14:00:00.000Z'],
    ['just before its end', '2026-11-20T13:59:59.999Z', 'active', '2026-11-20T14:00:00.000Z'],
    ['at its end', '2026-11-20T14:00:00.000Z', 'expired', null],
  ])('a once silence %s is %s', (_, now, status, next) => {
    expect(silenceStatus(once(), t(now))).toEqual({ status, next_change_at: next });
  });

  it('starts a once silence without a start when it was created', () => {
    const s = once({ starts_at: null });
    expect(silenceStatus(s, t('2026-11-20T09:59:00.000Z')).status).toBe('scheduled');
    expect(silenceStatus(s, t('2026-11-20T10:00:00.000Z'))).toEqual({
      status: 'active',
      next_change_at: '2026-11-20T14:00:00.000Z',
    });
  });

  // 2026-11-22 is a Sunday.
  it.each([
    ['Saturday', '2026-11-21T12:00:00.000Z', 'scheduled', '2026-11-22T02:00:00.000Z'],
    ['a second before the window', '2026-11-22T01:59:59.000Z', 'scheduled', '2026-11-22T02:00:00.000Z'],
    ['its start', '2026-11-22T02:00:00.000Z', 'active', '2026-11-22T03:00:00.000Z'],
    ['within', '2026-11-22T02:59:59.999Z', 'active', '2026-11-22T03:00:00.000Z'],
    ['its end', '2026-11-22T03:00:00.000Z', 'scheduled', '2026-11-29T02:00:00.000Z'],
  ])('a weekly window (Sunday 02:00–03:00 UTC) at %s is %s', (_, now, status, next) => {
    expect(silenceStatus(recurring(), t(now))).toEqual({ status, next_change_at: next });
  });

  it('keeps a window that began the day before and runs past midnight (Friday 23:00 for 2 h, Berlin)', () => {
    const s = recurring({
      weekdays: ['friday'],
      start_time: '23:00',
      duration_minutes: 120,
      timezone: 'Europe/Berlin',
    });
    // Friday 2026-11-20 23:00 CET is 22:00Z; the window ends Saturday 01:00 CET (00:00Z).
    expect(silenceStatus(s, t('2026-11-20T21:59:00.000Z'))).toEqual({
      status: 'scheduled',
      next_change_at: '2026-11-20T22:00:00.000Z',
    });
    expect(silenceStatus(s, t('2026-11-20T23:30:00.000Z'))).toEqual({
      status: 'active',
      next_change_at: '2026-11-21T00:00:00.000Z',
    });
    expect(silenceStatus(s, t('2026-11-21T00:00:00.000Z'))).toEqual({
      status: 'scheduled',
      next_change_at: '2026-11-27T22:00:00.000Z',
    });
  });

  it('follows the zone across the spring change (Europe/Berlin, Sunday 2026-03-29)', () => {
    // 02:00 the Sunday before is 01:00Z (CET); on the change day 02:30 does not exist: the window opens at
    // 03:00 CEST (01:00Z) and lasts its 60 minutes; the Sunday after, 02:30 CEST is 00:30Z.
    const s = recurring({ start_time: '02:30', duration_minutes: 60, timezone: 'Europe/Berlin' });
    expect(silenceStatus(s, t('2026-03-22T01:45:00.000Z'))).toEqual({
      status: 'active',
      next_change_at: '2026-03-22T02:30:00.000Z',
    });
    expect(silenceStatus(s, t('2026-03-29T00:59:00.000Z'))).toEqual({
      status: 'scheduled',
      next_change_at: '2026-03-29T01:00:00.000Z',
    });
    expect(silenceStatus(s, t('2026-03-29T01:30:00.000Z'))).toEqual({
      status: 'active',
      next_change_at: '2026-03-29T02:00:00.000Z',
    });
    expect(silenceStatus(s, t('2026-04-05T00:30:00.000Z'))).toEqual({
      status: 'active',
      next_change_at: '2026-04-05T01:30:00.000Z',
    });
  });

  it('lasts its minutes of real time across the spring change (01:00 for 2 h ends at 04:00 CEST)', () => {
    const s = recurring({ start_time: '01:00', duration_minutes: 120, timezone: 'Europe/Berlin' });
    expect(silenceStatus(s, t('2026-03-29T01:30:00.000Z'))).toEqual({
      status: 'active',
      next_change_at: '2026-03-29T02:00:00.000Z',
    });
  });

  it('opens once in the autumn overlap (Europe/Berlin, Sunday 2026-10-25: 02:30 happens twice)', () => {
    const s = recurring({ start_time: '02:30', duration_minutes: 60, timezone: 'Europe/Berlin' });
    // The first 02:30 is CEST (00:30Z); the window ends at 01:30Z, which is the second 02:30 (CET).
    expect(silenceStatus(s, t('2026-10-25T00:30:00.000Z'))).toEqual({
      status: 'active',
      next_change_at: '2026-10-25T01:30:00.000Z',
    });
    expect(silenceStatus(s, t('2026-10-25T01:45:00.000Z'))).toEqual({
      status: 'scheduled',
      next_change_at: '2026-11-01T01:30:00.000Z',
    });
  });

  it('joins windows that overlap or touch into one', () => {
    // Monday and Tuesday, each for a whole day from 00:00: active from Monday 00:00 to Wednesday 00:00.
    const s = recurring({ weekdays: ['monday', 'tuesday'], start_time: '00:00', duration_minutes: 1440 });
    expect(silenceStatus(s, t('2026-11-23T06:00:00.000Z'))).toEqual({
      status: 'active',
      next_change_at: '2026-11-25T00:00:00.000Z',
    });
    expect(silenceStatus(s, t('2026-11-25T00:00:00.000Z'))).toEqual({
      status: 'scheduled',
      next_change_at: '2026-11-30T00:00:00.000Z',
    });
  });
});

describe('isSilenced', () => {
  const NOW = t('2026-11-20T13:00:00.000Z');
  const critical = { id: 1, severity: 'critical' as const };
  const warning = { id: 2, severity: 'warning' as const };

  it.each([
    ['one rule', once({ rule_id: 1 }), [true, false]],
    ['a severity', once({ severity: 'warning' }), [false, true]],
    ['every rule', once(), [true, true]],
    ['nothing once expired', once({ ends_at: '2026-11-20T12:30:00.000Z' }), [false, false]],
    ['nothing before it starts', once({ starts_at: '2026-11-20T13:30:00.000Z' }), [false, false]],
    ['nothing outside its window', recurring(), [false, false]],
  ])('a silence of %s mutes [critical rule 1, warning rule 2] = %j', (_, silence, expected) => {
    expect([isSilenced(critical, [silence], NOW), isSilenced(warning, [silence], NOW)]).toEqual(expected);
  });

  it('mutes when any of several silences covers the rule and is active', () => {
    const silences = [once({ rule_id: 2 }), recurring({ weekdays: ['friday'], start_time: '12:30' })];
    expect(isSilenced(critical, silences, NOW)).toBe(true);
    expect(isSilenced(critical, silences, t('2026-11-20T13:30:00.000Z'))).toBe(false);
    expect(isSilenced(critical, [], NOW)).toBe(false);
  });
});
