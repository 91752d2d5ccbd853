import { describe, expect, it } from 'vitest';
import { escapeFor, escapeHtml, escapeMarkdown, escapeMarkdownV2 } from './escape.js';
import { checkTelegramText } from './check.js';

describe('escapeHtml', () => {
  it.each([
    ['a < b > c & d', 'text', 'a &lt; b &gt; c &amp; d'],
    ['<b>not bold</b>', 'text', '&lt;b&gt;not bold&lt;/b&gt;'],
    ['say "hi"', 'text', 'say "hi"'],
    ['say "hi"', 'attribute', 'say &quot;hi&quot;'],
    ['https://x.test/?a=1&b=2', 'attribute', 'https://x.test/?a=1&amp;b=2'],
    ['&amp;', 'text', '&amp;amp;'],
    ['plain', 'text', 'plain'],
  ] as const)('%j in %s → %j', (value, context, expected) => {
    expect(escapeHtml(value, context)).toBe(expected);
  });
});

describe('escapeMarkdownV2', () => {
  it.each([
    ['Price: $1.5 (up 5%)!', 'text', 'Price: $1\\.5 \\(up 5%\\)\\!'],
    ['_*[]()~`>#+-=|{}.!', 'text', '\\_\\*\\[\\]\\(\\)\\~\\`\\>\\#\\+\\-\\=\\|\\{\\}\\.\\!'],
    ['back\\slash', 'text', 'back\\\\slash'],
    ['snake_case', 'text', 'snake\\_case'],
    ['a.b `c` \\d', 'code', 'a.b \\`c\\` \\\\d'],
    ['x_y*z', 'pre', 'x_y*z'],
    ['https://x.test/a_(b).html', 'url', 'https://x.test/a_(b\\).html'],
    ['c:\\dir', 'url', 'c:\\\\dir'],
  ] as const)('%j in %s → %j', (value, context, expected) => {
    expect(escapeMarkdownV2(value, context)).toBe(expected);
  });

  it('escapes every printable ASCII character Telegram reserves, and nothing else', () => {
    for (let code = 32; code < 127; code += 1) {
      const char = String.fromCharCode(code);
      const escaped = escapeMarkdownV2(char);
      const reserved = '_*[]()~`>#+-=|{}.!\\'.includes(char);
      expect(escaped, char).toBe(reserved ? `\\${char}` : char);
      // Whatever the character, the escaped text parses and reads as the character itself.
      expect(checkTelegramText(`x${escaped}x`, 'MarkdownV2').plainText).toBe(`x${char}x`);
    }
  });
});

describe('escapeMarkdown (legacy)', () => {
  it.each([
    ['snake_case *x* `y` [z]', 'text', 'snake\\_case \\*x\\* \\`y\\` \\[z]'],
    ['2*2=4', 'bold', '2*\\**2=4'],
    ['snake_case', 'italic', 'snake_\\__case'],
    ['a`b', 'code', 'a`\\``b'],
    ['https://x.test/a_(b)', 'url', 'https://x.test/a_(b%29'],
    ['a.b!', 'text', 'a.b!'],
  ] as const)('%j in %s → %j', (value, context, expected) => {
    expect(escapeMarkdown(value, context)).toBe(expected);
  });

  it.each([
    ['*{v}*', 'bold', '2*2=4'],
    ['_{v}_', 'italic', 'snake_case'],
    ['`{v}`', 'code', 'a`b'],
    ['{v}', 'text', 'snake_case *x* `y` [z]'],
  ] as const)('the escaped value reads as written inside %s', (markup, context, value) => {
    const text = markup.replace('{v}', escapeMarkdown(value, context));
    const check = checkTelegramText(text, 'Markdown');
    expect(check.problems).toEqual([]);
    expect(check.plainText).toBe(value);
  });
});

describe('escapeFor', () => {
  it('picks the escaping of the parse mode', () => {
    expect(escapeFor('HTML', '<1.5>')).toBe('&lt;1.5&gt;');
    expect(escapeFor('MarkdownV2', '<1.5>')).toBe('<1\\.5\\>');
    expect(escapeFor('Markdown', '_1.5_')).toBe('\\_1.5\\_');
  });
});
