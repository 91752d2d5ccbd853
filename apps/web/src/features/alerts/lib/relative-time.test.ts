import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time';

const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });
const now = Date.parse('2026-11-25T10:00:00.000Z');
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

describe('formatRelativeTime', () => {
  it.each([
    [0, rtf.format(0, 'second')],
    [40, rtf.format(-40, 'second')],
    [5 * 60 + 10, rtf.format(-5, 'minute')],
    [3 * 3600, rtf.format(-3, 'hour')],
    [2 * 86_400, rtf.format(-2, 'day')],
  ])('%i seconds ago reads %s', (seconds, expected) => {
    expect(formatRelativeTime(ago(seconds), now)).toBe(expected);
  });

  it('is empty for a value that is not a date', () => {
    expect(formatRelativeTime('soon', now)).toBe('');
  });
});
