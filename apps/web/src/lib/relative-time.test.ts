import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time';

const now = Date.parse('2025-06-01T12:00:00Z');
const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });

describe('formatRelativeTime', () => {
  it.each([
    { value: '2025-06-01T11:59:30Z', expected: rtf.format(0, 'second') },
    { value: '2025-06-01T11:55:00Z', expected: rtf.format(-5, 'minute') },
    { value: '2025-06-01T11:00:30Z', expected: rtf.format(-59, 'minute') },
    { value: '2025-06-01T09:00:00Z', expected: rtf.format(-3, 'hour') },
    { value: '2025-05-31T11:00:00Z', expected: rtf.format(-1, 'day') },
    { value: '2025-05-10T12:00:00Z', expected: rtf.format(-3, 'week') },
    { value: 'not a date', expected: '' },
  ])('$value', ({ value, expected }) => {
    expect(formatRelativeTime(value, now)).toBe(expected);
  });

  it.each([
    [0, rtf.format(0, 'second')],
    [40, rtf.format(-40, 'second')],
    [5 * 60 + 10, rtf.format(-5, 'minute')],
    [3 * 3600, rtf.format(-3, 'hour')],
    [2 * 86_400, rtf.format(-2, 'day')],
  ])('with seconds, %i seconds ago reads %s', (seconds, expected) => {
    const value = new Date(now - seconds * 1000).toISOString();
    expect(formatRelativeTime(value, now, { seconds: true })).toBe(expected);
  });
});
