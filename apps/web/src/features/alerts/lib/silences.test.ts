import { ALERT_MESSAGES, type Silence } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import {
  describeSilenceScope,
  describeSilenceWhen,
  endNowInput,
  endTime,
  silenceFormOf,
  silenceFormSchema,
  silenceFormDefaults,
  toSilenceInput,
} from './silences';

const base: Silence = {
  id: 1,
  kind: 'recurring',
  rule_id: null,
  rule_name: null,
  severity: null,
  comment: 'Maintenance',
  starts_at: null,
  ends_at: null,
  weekdays: ['sunday'],
  start_time: '02:00',
  duration_minutes: 60,
  timezone: 'Europe/Berlin',
  status: 'scheduled',
  next_change_at: null,
  created_at: '2026-11-25T08:00:00.000Z',
  created_by: 'admin',
};

describe('silences', () => {
  it('describes a maintenance window', () => {
    expect(describeSilenceWhen(base)).toBe('Sundays 02:00–03:00 Europe/Berlin');
    expect(describeSilenceWhen({ ...base, weekdays: ['monday', 'friday'], start_time: '23:30' })).toBe(
      'Mondays, Fridays 23:30–00:30 (+1 d) Europe/Berlin',
    );
  });

  it.each([
    ['00:00', 1440, '00:00 (+1 d)'],
    ['09:15', 30, '09:45'],
  ])('a window from %s for %i min ends at %s', (start, minutes, end) => {
    expect(endTime(start, minutes)).toBe(end);
  });

  it('describes the scope', () => {
    expect(describeSilenceScope(base)).toBe('All rules');
    expect(describeSilenceScope({ ...base, severity: 'critical' })).toBe('Every critical rule');
    expect(describeSilenceScope({ ...base, rule_id: 3, rule_name: 'Heartbeat' })).toBe('Rule: Heartbeat');
  });

  it('turns the form into the request, and checks it with the contract', () => {
    const values = { ...silenceFormDefaults('rule:4'), ends_at: '2026-12-01T10:00', comment: 'Deploy' };
    expect(toSilenceInput(values)).toMatchObject({
      kind: 'once',
      rule_id: 4,
      severity: null,
      starts_at: null,
      ends_at: new Date('2026-12-01T10:00').toISOString(),
    });
    const missing = silenceFormSchema.safeParse({ ...values, ends_at: '', comment: '' });
    expect(missing.error?.issues.map((issue) => issue.path[0]).sort()).toEqual(['comment', 'ends_at']);
  });

  it('refuses an end that has passed, once, under the end', () => {
    const values = { ...silenceFormDefaults(), ends_at: '2020-01-01T10:00', comment: 'Deploy' };
    expect(silenceFormSchema.safeParse(values).error?.issues).toEqual([
      expect.objectContaining({ path: ['ends_at'], message: ALERT_MESSAGES.endsPassed }),
    ]);
    const beforeStart = { ...values, starts_at: '2020-01-02T10:00' };
    expect(silenceFormSchema.safeParse(beforeStart).error?.issues).toEqual([
      expect.objectContaining({ path: ['ends_at'], message: ALERT_MESSAGES.endsAfterStart }),
    ]);
  });

  it('fills the form from a silence and sends it back as it was', () => {
    const once: Silence = {
      ...base,
      kind: 'once',
      severity: 'critical',
      starts_at: '2099-01-01T08:00:00.000Z',
      ends_at: '2099-01-01T10:00:00.000Z',
      weekdays: null,
      start_time: null,
      duration_minutes: null,
      timezone: null,
    };
    expect(toSilenceInput(silenceFormOf(once))).toEqual({
      kind: 'once',
      rule_id: null,
      severity: 'critical',
      comment: 'Maintenance',
      starts_at: '2099-01-01T08:00:00.000Z',
      ends_at: '2099-01-01T10:00:00.000Z',
    });
    expect(toSilenceInput(silenceFormOf({ ...base, rule_id: 3 }))).toEqual({
      kind: 'recurring',
      rule_id: 3,
      severity: null,
      comment: 'Maintenance',
      weekdays: ['sunday'],
      start_time: '02:00',
      duration_minutes: 60,
      timezone: 'Europe/Berlin',
    });
    expect(endNowInput(once)).toEqual({ ...toSilenceInput(silenceFormOf(once)), ends_at: 'now' });
  });
});
