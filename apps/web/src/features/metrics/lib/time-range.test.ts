import { describe, expect, it } from 'vitest';
import {
  CUSTOM_RANGE_MESSAGES,
  describeUtcDays,
  parseTimeRange,
  rangeInterval,
  resolveTimeRange,
  timeRangeKey,
  timeRangeParams,
  validateCustomRange,
} from './time-range';

const NOW = new Date('2026-11-25T12:00:00.000Z');

describe('parseTimeRange', () => {
  it.each([
    { range: null, from: null, to: null, expected: { kind: 'relative', value: '24h' } },
    { range: '1h', from: null, to: null, expected: { kind: 'relative', value: '1h' } },
    { range: '90d', from: null, to: null, expected: { kind: 'relative', value: '90d' } },
    { range: '2h', from: null, to: null, expected: { kind: 'relative', value: '24h' } },
    {
      range: 'custom',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-02T00:00:00.000Z',
      expected: { kind: 'custom', from: '2026-11-01T00:00:00.000Z', to: '2026-11-02T00:00:00.000Z' },
    },
    // A broken link still shows a view: the default range.
    { range: 'custom', from: null, to: '2026-11-02T00:00:00Z', expected: { kind: 'relative', value: '24h' } },
    { range: 'custom', from: 'yesterday', to: 'today', expected: { kind: 'relative', value: '24h' } },
    {
      range: 'custom',
      from: '2026-11-02T00:00:00Z',
      to: '2026-11-01T00:00:00Z',
      expected: { kind: 'relative', value: '24h' },
    },
    {
      range: 'custom',
      from: '2026-01-01T00:00:00Z',
      to: '2026-11-01T00:00:00Z',
      expected: { kind: 'relative', value: '24h' },
    },
    { range: 'custom', from: '1', to: '2', expected: { kind: 'relative', value: '24h' } },
  ])('$range $from $to', ({ range, from, to, expected }) => {
    expect(parseTimeRange(range, from, to)).toEqual(expected);
  });
});

describe('timeRangeParams', () => {
  it('leaves the default out, and round-trips every other range through the URL', () => {
    expect(timeRangeParams({ kind: 'relative', value: '24h' })).toEqual({
      range: null,
      from: null,
      to: null,
    });
    for (const range of [
      { kind: 'relative', value: '7d' },
      { kind: 'custom', from: '2026-11-01T00:00:00.000Z', to: '2026-11-03T06:30:00.000Z' },
    ] as const) {
      const params = timeRangeParams(range);
      expect(parseTimeRange(params.range, params.from, params.to)).toEqual(range);
    }
  });
});

describe('validateCustomRange', () => {
  it.each([
    {
      from: '',
      to: '',
      errors: { from: CUSTOM_RANGE_MESSAGES.fromRequired, to: CUSTOM_RANGE_MESSAGES.toRequired },
    },
    { from: '2026-11-01T10:00', to: '', errors: { to: CUSTOM_RANGE_MESSAGES.toRequired } },
    { from: 'not a date', to: '2026-11-01T10:00', errors: { from: CUSTOM_RANGE_MESSAGES.fromRequired } },
    { from: '2026-11-01T10:00', to: '2026-11-01T10:00', errors: { to: CUSTOM_RANGE_MESSAGES.order } },
    { from: '2026-11-02T10:00', to: '2026-11-01T10:00', errors: { to: CUSTOM_RANGE_MESSAGES.order } },
    { from: '2026-01-01T00:00', to: '2026-06-01T00:00', errors: { to: 'A range spans at most 92 days' } },
  ])('$from – $to is refused', ({ from, to, errors }) => {
    expect(validateCustomRange(from, to)).toEqual({ ok: false, errors });
  });

  it('accepts a range up to 92 days, as instants', () => {
    const from = new Date('2026-08-01T00:00');
    const to = new Date(from.getTime() + 92 * 86_400_000);
    const toLocal = new Date(to.getTime() - to.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    expect(validateCustomRange('2026-08-01T00:00', toLocal)).toEqual({
      ok: true,
      from: from.toISOString(),
      to: to.toISOString(),
    });
  });
});

describe('resolveTimeRange and rangeInterval', () => {
  it.each([
    { value: '1h', from: '2026-11-25T11:00:00.000Z', interval: 'hour' },
    { value: '24h', from: '2026-11-24T12:00:00.000Z', interval: 'hour' },
    { value: '7d', from: '2026-11-18T12:00:00.000Z', interval: 'hour' },
    { value: '30d', from: '2026-10-26T12:00:00.000Z', interval: 'day' },
    { value: '90d', from: '2026-08-27T12:00:00.000Z', interval: 'day' },
  ] as const)('the last $value ends now, by $interval', ({ value, from, interval }) => {
    const resolved = resolveTimeRange({ kind: 'relative', value }, NOW);
    expect(resolved).toEqual({ from, to: NOW.toISOString() });
    expect(rangeInterval(resolved.from, resolved.to)).toBe(interval);
  });

  it('keeps a custom range as it is, and keys a relative one by its name so its key does not move', () => {
    const custom = {
      kind: 'custom',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-09T00:00:00.000Z',
    } as const;
    expect(resolveTimeRange(custom, NOW)).toEqual({ from: custom.from, to: custom.to });
    expect(rangeInterval(custom.from, custom.to)).toBe('day');
    expect(timeRangeKey({ kind: 'relative', value: '6h' })).toBe('6h');
    expect(timeRangeKey(custom)).toBe(`${custom.from}/${custom.to}`);
  });
});

describe('describeUtcDays', () => {
  const dates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
  const span = (from: string, to: string) => dates.formatRange(Date.parse(from), Date.parse(to));

  // NOW is 2026-11-25T12:00Z: today, in UTC, is the 25th.
  it.each([
    { range: '1h', from_day: '2026-11-25', to_day: '2026-11-25', words: 'Today (UTC day)' },
    {
      range: '24h',
      from_day: '2026-11-24',
      to_day: '2026-11-25',
      words: 'Today and the day before (UTC days)',
    },
    {
      range: '30d',
      from_day: '2026-10-26',
      to_day: '2026-11-25',
      words: 'Today and the 30 days before (UTC days)',
    },
    { range: 'custom', from_day: '2026-11-01', to_day: '2026-11-08', words: '8 whole UTC days' },
    { range: 'custom', from_day: '2026-11-01', to_day: '2026-11-01', words: '1 whole UTC day' },
  ])('a $range range read $from_day to $to_day: $words', ({ from_day, to_day, words }) => {
    expect(describeUtcDays({ from_day, to_day }, NOW)).toBe(`${words} · ${span(from_day, to_day)}`);
  });
});
