import { describe, expect, it } from 'vitest';
import {
  contentPreview,
  contentToText,
  defaultContentMode,
  newItemContentMode,
  parseJsonObject,
} from './content';

describe('content helpers', () => {
  it.each([
    [{ tone: 'warm' }, 'json'],
    ['Hello there', 'text'],
    ['{"looks":"like json"}', 'text'],
  ] as const)('starts %j in %s mode', (content, mode) => {
    expect(defaultContentMode(content)).toBe(mode);
  });

  it.each([
    ['an empty domain', [], 'text'],
    ['a domain of objects', [{ on: true }, { on: false }], 'json'],
    ['a domain mostly of objects', [{ on: true }, { on: false }, 'Say hi'], 'json'],
    ['a domain half objects, half text', [{ on: true }, 'Say hi'], 'text'],
    ['a domain of text', ['Say hi', '{"looks":"like json"}'], 'text'],
  ] as const)('starts a new item of %s in %s mode', (_domain, contents, mode) => {
    expect(newItemContentMode(contents.map((content) => ({ content })))).toBe(mode);
  });

  it('pretty-prints objects for the editor and leaves text alone', () => {
    expect(contentToText({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(contentToText('plain')).toBe('plain');
  });

  it.each([
    ['{"a":1}', { a: 1 }],
    ['[1,2]', null],
    ['42', null],
    ['null', null],
    ['{"a":', null],
  ])('reads %s as %j', (text, expected) => {
    expect(parseJsonObject(text)).toEqual(expected);
  });

  it('cuts the list preview at 50 characters', () => {
    expect(contentPreview('x'.repeat(50))).toBe('x'.repeat(50));
    expect(contentPreview('y'.repeat(51))).toBe(`${'y'.repeat(50)}...`);
    expect(contentPreview({ tone: 'warm' })).toBe('{"tone":"warm"}');
    expect(contentPreview('two\nlines')).toBe('two lines');
  });
});
