import { describe, expect, it } from 'vitest';
import { parseMetricsRange, type MetricsRangeRules } from './metrics-range.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-11-20T12:30:00.000Z');
const rules = (defaultTo: MetricsRangeRules['defaultTo']): MetricsRangeRules => ({
  defaultTo,
  defaultMs: DAY,
  maxDays: 92,
  messages: { order: 'from must be before to', tooLong: 'at most 92 days' },
});
const END_OF_HOUR = rules('end-of-hour');
const NOW_RULES = rules('now');

describe('parseMetricsRange', () => {
  it.each([
    [
      'the default: the 24 hours up to the end of this hour',
      {},
      END_OF_HOUR,
      {
        from: '2026-11-19T13:00:00.000Z',
        to: '2026-11-20T13:00:00.000Z',
        fromDay: '2026-11-19',
        toDay: '2026-11-20',
      },
    ],
    [
      'a range mid-hour covers the whole hours it touches',
      { from: '2026-11-20T10:15:00Z', to: '2026-11-20T11:45:00+00:00' },
      END_OF_HOUR,
      {
        from: '2026-11-20T10:00:00.000Z',
        to: '2026-11-20T12:00:00.000Z',
        fromDay: '2026-11-20',
        toDay: '2026-11-20',
      },
    ],
    [
      'a default ending now',
      { from: '2026-11-20T00:00:00Z' },
      NOW_RULES,
      {
        from: '2026-11-20T00:00:00.000Z',
        to: '2026-11-20T13:00:00.000Z',
        fromMs: Date.parse('2026-11-20T00:00:00Z'),
        toMs: NOW,
      },
    ],
  ])('%s', (_name, query, given, expected) => {
    expect(parseMetricsRange(query, NOW, given)).toMatchObject(expected);
  });

  it('answers a range asked again with the same resolution, and a default moves on with the hour', () => {
    const query = { from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z' };
    const first = parseMetricsRange(query, NOW, END_OF_HOUR);
    expect(parseMetricsRange({ ...query }, NOW + 5 * HOUR, END_OF_HOUR)).toEqual(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(parseMetricsRange({}, NOW, END_OF_HOUR).to).toBe('2026-11-20T13:00:00.000Z');
    expect(parseMetricsRange({}, NOW + HOUR, END_OF_HOUR).to).toBe('2026-11-20T14:00:00.000Z');
    expect(parseMetricsRange({}, NOW + 60_000, NOW_RULES).toMs).toBe(NOW + 60_000);
  });

  it.each([
    [{ from: '2026-11-20T12:00:00Z', to: '2026-11-20T12:00:00Z' }, 'from', /before to/],
    [{ from: '2026-08-01T00:00:00Z', to: '2026-11-20T00:00:00Z' }, 'from', /92 days/],
    [
      { from: '9999-12-20T00:00:00Z', to: '9999-12-31T00:00:00Z' },
      'from',
      /between 2000-01-01 and 2100-01-01/,
    ],
    [{ from: '2099-12-31T00:00:00Z', to: '2100-01-01T00:00:01Z' }, 'to', /between 2000-01-01 and 2100-01-01/],
  ])('refuses %j, naming %s, every time it is asked', (query, field, message) => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(() => parseMetricsRange(query, NOW, END_OF_HOUR)).toThrow(
        expect.objectContaining({ errors: [{ path: field, message: expect.stringMatching(message) }] }),
      );
    }
  });
});
