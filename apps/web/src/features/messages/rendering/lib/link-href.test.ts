import { describe, expect, it } from 'vitest';
import { safeLinkHref } from './link-href';

describe('safeLinkHref', () => {
  it.each([
    ['https://t.me/lumi', 'https://t.me/lumi'],
    ['http://example.com/a?b=1', 'http://example.com/a?b=1'],
    ['mailto:ops@example.com', 'mailto:ops@example.com'],
    ['tg://user?id=42', 'tg://user?id=42'],
    ['example.com/chart', 'http://example.com/chart'],
    ['javascript:alert(1)', null],
    ['JavaScript:alert(1)', null],
    ['data:text/html,<b>x</b>', null],
    ['', null],
    ['not a link', null],
  ])('%s', (url, expected) => {
    expect(safeLinkHref(url)).toBe(expected);
  });
});
