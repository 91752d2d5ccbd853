import { describe, expect, it } from 'vitest';
import {
  directionControlReason,
  findUnsafeText,
  groupedNumber,
  isVisibleName,
  printableText,
  unsafeTextReason,
} from './text.js';

describe('unsafeTextReason', () => {
  it.each(['', 'plain', 'tab\tand\nlines\r\n', 'émoji 🚀 and 中文', '👨\u200D💻'])('accepts %j', (text) => {
    expect(unsafeTextReason(text)).toBeNull();
  });

  it.each([
    ['a\u0000b', 'Must not contain control characters (found U+0000)'],
    ['\u0007', 'Must not contain control characters (found U+0007)'],
    ['\u001B[31m', 'Must not contain control characters (found U+001B)'],
    ['x\u007F', 'Must not contain control characters (found U+007F)'],
    ['x\u0085', 'Must not contain control characters (found U+0085)'],
    ['\uD800', 'Must be valid Unicode text (found a lone surrogate)'],
    ['a\uDFFFb', 'Must be valid Unicode text (found a lone surrogate)'],
  ])('refuses %j', (text, message) => {
    expect(unsafeTextReason(text)).toBe(message);
  });
});

describe('findUnsafeText', () => {
  it('names the path of the first unsafe string, in values and in keys', () => {
    expect(findUnsafeText({ a: 'ok', b: [1, 'ok', { c: 'x\u0000' }] })).toEqual({
      path: 'b.2.c',
      message: 'Must not contain control characters (found U+0000)',
    });
    expect(findUnsafeText({ content: { 'k\u0000': 1 } })).toEqual({
      path: 'content.k\u0000',
      message: 'Field name: Must not contain control characters (found U+0000)',
    });
    expect(findUnsafeText('\u0001')).toEqual({ path: '', message: expect.any(String) });
  });

  it('passes values without strings or with clean ones', () => {
    expect(findUnsafeText({ n: 1, b: true, z: null, list: ['a', 'b\n'], deep: { x: 'y' } })).toBeNull();
    expect(findUnsafeText(undefined)).toBeNull();
  });
});

describe('isVisibleName', () => {
  it.each(['admin', 'Zoë Müller', 'Launch 🚀', 'محمد', '山田 太郎'])('accepts %j', (name) => {
    expect(isVisibleName(name)).toBe(true);
  });

  it.each([
    'ad\u200Bmin',
    'ad\u200Dmin',
    '\u202Enimda',
    'admin\u2066',
    'ad\u00ADmin',
    '\uFEFFadmin',
    'ad\u2060min',
    'two\nlines',
    'tab\there',
    'ad\u3164min',
  ])('refuses %j', (name) => {
    expect(isVisibleName(name)).toBe(false);
  });
});

describe('directionControlReason', () => {
  it.each([
    'plain',
    'ספאם in the group, see ticket 42',
    // Right-to-left text with the marks a keyboard layout types (RLM, LRM, ALM).
    'חסום\u200F 42 \u200E(ticket)',
    'تم الحظر\u061C 42',
  ])('accepts %j', (text) => {
    expect(directionControlReason(text)).toBeNull();
  });

  it.each(['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'])(
    'refuses %j, naming it',
    (control) => {
      const code = `U+${control.charCodeAt(0).toString(16).toUpperCase()}`;
      expect(directionControlReason(`reason ${control}txet`)).toBe(
        `Remove the text-direction control (found ${code}): it makes the text read in another order than it was written`,
      );
    },
  );
});

describe('printableText', () => {
  it('replaces control characters and lone surrogates, keeping pairs and line breaks', () => {
    expect(printableText('a\u0000b\u001b[31m\u009fc\ud800d\n😀')).toBe(
      'a\uFFFDb\uFFFD[31m\uFFFDc\uFFFDd\n😀',
    );
  });
});

describe('groupedNumber', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1_000, '1,000'],
    [86_400, '86,400'],
    [1_000_000_000, '1,000,000,000'],
    [-86_400, '-86,400'],
  ])('writes %d as %s, as toLocaleString("en") does', (value, text) => {
    expect(groupedNumber(value)).toBe(text);
    expect(groupedNumber(value)).toBe(value.toLocaleString('en'));
  });
});

it('writes a number that is not whole as String does', () => {
  expect(groupedNumber(1234.5678)).toBe('1234.5678');
});
