import { describe, expect, it } from 'vitest';
import { dateTimeFormat, emojiLinkId, leadingInt32, linkNode, timeLink } from './links.js';

describe('linkNode', () => {
  it.each([
    ['telegram.org', 'http://telegram.org/'],
    ['HTTPS://Telegram.ORG/Path?q=A#F', 'https://telegram.org/Path?q=A#F'],
    ['https://telegram.dog?', 'https://telegram.dog/?'],
    ['telegram.org/a b\t', 'http://telegram.org/a%20b'],
    ['user:pass@example.com:0080/x', 'http://user:pass@example.com:80/x'],
    ['http://[2001:db8::1]:8080/', 'http://[2001:db8::1]:8080/'],
    ['http://ünïcödé.example/', 'http://ünïcödé.example/'],
    ['tg:resolve?domain=lumi', 'tg://resolve?domain=lumi'],
    ['TG://Resolve/?domain=lumi', 'tg://resolve?domain=lumi'],
    ['tonsite://lumi.ton/page', 'tonsite://lumi.ton/page'],
    // No scheme but http(s) is read: 'mailto:someone' is the user part of an http URL.
    ['mailto:someone@example.com', 'http://mailto:someone@example.com/'],
  ])('links %j to %j', (url, expected) => {
    expect(linkNode(url)).toEqual({ type: 'link', url: expected, children: [] });
  });

  it.each([
    '',
    'localhost',
    'nowhere',
    'ftp://example.com/',
    'javascript:alert(1)',
    'example.com:99999',
    'exa mple.com',
    'http://[not:an:address]/',
    'tg://http://x.y',
    'tg://user:1@resolve',
    'tg://bad.host',
  ])('makes no link of %j', (url) => {
    expect(linkNode(url)).toBeNull();
  });

  it.each([
    ['tg://user?id=123456789', 123456789],
    ['TG:USER?ID=42', 42],
    ['tg:user/?x=1&id=7#id=8', 7],
  ])('mentions the user of %j', (url, userId) => {
    expect(linkNode(url)).toEqual({ type: 'text_mention', userId, children: [] });
  });

  it.each(['tg://user?id=0', 'tg://user?id=012', 'tg://user?id=1099511627776', 'tg://users?id=1'])(
    'mentions nobody with %j',
    (url) => {
      expect(linkNode(url)?.type).not.toBe('text_mention');
    },
  );
});

describe('tg://emoji and tg://time', () => {
  it.each([
    ['tg://emoji?id=5368324170671202286', '5368324170671202286'],
    ['TG://EMoJI/?test=1&id=25#id=32', '25'],
    ['tg://emoji?id=025', null],
    ['tg://emoji?id=0', null],
    ['tg://emojis?id=1', null],
    ['tg://emoji#id=1', null],
  ])('reads %j as the custom emoji %j', (url, id) => {
    expect(emojiLinkId(url)).toBe(id);
  });

  it.each([
    ['tg://time?unix=1647531900', { unixTime: 1647531900, format: '' }],
    ['tg://time?unix=1647531900&format=wDT', { unixTime: 1647531900, format: 'wDT' }],
    ['tg://time?format=R&unix=1', { unixTime: 1, format: 'r' }],
    ['tg://time?unix=0', null],
    ['tg://time?unix=025', null],
    ['tg://time?unix=1&format=rt', null],
    ['tg://time?format=t', null],
  ])('reads %j as %j', (url, expected) => {
    expect(timeLink(url)).toEqual(expected);
  });

  it.each([
    ['', ''],
    ['r', 'r'],
    ['R', 'r'],
    ['wDT', 'wDT'],
    ['Wt', 'wt'],
    ['tttTTdDwW', 'wdt'],
    ['rt', null],
    ['ts', null],
  ])('reads the date format %j as %j', (format, expected) => {
    expect(dateTimeFormat(format)).toBe(expected);
  });

  it.each([
    ['1647531900', 1647531900],
    ['12abc', 12],
    ['abc', 0],
    ['-5', -5],
    ['4294967297', 1],
    ['2147483648', -2147483648],
  ])('reads unix=%j as %d, as Telegram does', (value, expected) => {
    expect(leadingInt32(value)).toBe(expected);
  });
});
