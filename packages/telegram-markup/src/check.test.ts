import { describe, expect, it } from 'vitest';
import { checkTelegramText } from './check.js';

const errorsOf = (text: string, mode: 'HTML' | 'MarkdownV2' | 'Markdown') =>
  checkTelegramText(text, mode).problems.filter((p) => p.severity === 'error');

describe('HTML', () => {
  it.each([
    ['<b>bold</b>, <strong>bold</strong>', 'bold, bold'],
    ['<i>i</i><em>e</em><u>u</u><ins>n</ins><s>s</s><strike>k</strike><del>d</del>', 'ieunskd'],
    ['<span class="tg-spoiler">secret</span> <tg-spoiler>hidden</tg-spoiler>', 'secret hidden'],
    ['<b>bold <i>italic bold <s>strike</s></i> bold</b>', 'bold italic bold strike bold'],
    ['<a href="http://www.example.com/">inline URL</a>', 'inline URL'],
    ['<a href="tg://user?id=123456789">mention</a>', 'mention'],
    ['<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>', '👍'],
    ['<tg-time unix="1647531900" format="wDT">22:45 tomorrow</tg-time>', '22:45 tomorrow'],
    ['<code>x &lt; y</code>', 'x < y'],
    ['<pre><code class="language-python">print(1)</code></pre>', 'print(1)'],
    ['<blockquote>quote</blockquote><blockquote expandable>more</blockquote>', 'quotemore'],
    ['1 &lt; 2 &amp;&amp; 3 &gt; 2 &quot;q&quot; &#65;&#x42;', '1 < 2 && 3 > 2 "q" AB'],
    ['<B>upper case tags</B>', 'upper case tags'],
    ['<b>closed <i>by</> </>', 'closed by'],
    ['a &lt b', 'a < b'],
    ['a & b', 'a & b'],
    ['line one\nline two', 'line one\nline two'],
  ])('accepts %j', (text, plain) => {
    const check = checkTelegramText(text, 'HTML');
    expect(check.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(check.plainText).toBe(plain);
    expect(check.length).toBe(plain.length);
  });

  it.each([
    ['Price <b>up</i>', 1, 12, 'expected </b>, found </i>'],
    ['<b>bold', 1, 1, '<b> is never closed'],
    ['text</b>', 1, 5, 'Unexpected end tag </b>'],
    ['line\n<div>x</div>', 2, 1, 'Unsupported tag <div>'],
    ['a<br>b', 1, 2, 'write a line break instead of <br>'],
    ['1 < 2', 1, 3, "A '<' that is not part of a tag must be written as &lt;"],
    ['<span>x</span>', 1, 1, 'class="tg-spoiler"'],
    ['<b><i>x</b></i>', 1, 8, 'expected </i>, found </b>'],
    ['<code>x < y</code>', 1, 9, 'must be written as &lt;'],
    ['<a href="x>link</a>', 1, 1, 'is not closed'],
    ['<br/>', 1, 1, 'Unsupported tag <br>'],
    ['<tg-emoji>👍</tg-emoji>', 1, 1, 'emoji-id'],
    ['<tg-time unix="1647531900" format="rt">x</tg-time>', 1, 1, "the format is 'r' or any of"],
    ['x &#57311;', 1, 3, 'half of a UTF-16 surrogate pair'],
    ['<a href=https://t.me>x</a>', 1, 9, 'must be quoted'],
  ])('rejects %j at line %i, column %i', (text, line, column, message) => {
    const [error] = errorsOf(text, 'HTML');
    expect(error).toMatchObject({ line, column });
    expect(error!.message).toContain("can't parse entities");
    expect(error!.message).toContain(message);
  });

  it('warns about what Telegram accepts but shows differently', () => {
    const { problems } = checkTelegramText('<code><b>x</b></code> &nbsp; <a>y</a>', 'HTML');
    expect(problems.map((p) => p.severity)).toEqual(['warning', 'warning', 'warning']);
    expect(problems.map((p) => p.message).join(' ')).toMatch(/<b> is ignored.*&nbsp;.*no href/);
  });
});

describe('MarkdownV2', () => {
  it.each([
    ['*bold \\*text*', 'bold *text'],
    ['_italic \\*text_', 'italic *text'],
    ['__underline__ ~strike~ ||spoiler||', 'underline strike spoiler'],
    [
      '*bold _italic bold ~italic bold strikethrough ||spoiler||~ __underline italic bold___ bold*',
      'bold italic bold italic bold strikethrough spoiler underline italic bold bold',
    ],
    ['[inline URL](http://www.example.com/)', 'inline URL'],
    ['[mention](tg://user?id=123456789)', 'mention'],
    ['![👍](tg://emoji?id=5368324170671202286)', '👍'],
    ['`inline fixed-width code`', 'inline fixed-width code'],
    ['```\npre-formatted block\n```', 'pre-formatted block\n'],
    ['```python\nprint("x.y")\n```', 'print("x.y")\n'],
    ['`a.b (c) \\` \\\\`', 'a.b (c) ` \\'],
    ['[link](https://x.test/a_(b\\).html)', 'link'],
    ['>Block quotation started\n>continued\nafter', 'Block quotation started\ncontinued\nafter'],
    ['**>Expandable\n>hidden part||', 'Expandable\nhidden part'],
    ['Price: $1\\.50 \\(\\+5%\\)\\!', 'Price: $1.50 (+5%)!'],
    ['Tab\tand ünïcödé', 'Tab\tand ünïcödé'],
  ])('accepts %j', (text, plain) => {
    const check = checkTelegramText(text, 'MarkdownV2');
    expect(check.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(check.plainText).toBe(plain.trim());
  });

  it.each([
    ['Price: $1.50', 1, 10, "Character '.' is reserved"],
    ['Up 5%!', 1, 6, "Character '!' is reserved"],
    ['a-b', 1, 2, "Character '-' is reserved"],
    ['line one\n(two)', 2, 1, "Character '(' is reserved"],
    ['x > y', 1, 3, "Character '>' is reserved"],
    ['a | b', 1, 3, "Character '|' is reserved"],
    ['*bold', 1, 1, "Can't find the end of the bold (*) entity"],
    ['_italic', 1, 1, 'italic (_)'],
    ['__under', 1, 1, 'underline (__)'],
    ['`code', 1, 1, 'code (`)'],
    ['```\npre', 1, 1, 'pre (```)'],
    ['[text](http://x', 1, 7, "a ')' is missing"],
    ['snake_case', 1, 6, 'italic (_)'],
    ['*a _b* c_', 1, 9, 'italic (_)'],
    ['![👍](t://emoji?id=1234)', 1, 1, 'neither tg://emoji?id='],
    ['![👍](tg://time?unix=1647531900&format=rt)', 1, 1, 'neither tg://emoji?id='],
    // The quote ends with the line that does not start with '>', and the bold cannot go on past it.
    ['>*b\n>ld \n>bo\nld*\nasd', 1, 2, "Can't find the end of the bold (*) entity"],
  ])('rejects %j at line %i, column %i', (text, line, column, message) => {
    const [error] = errorsOf(text, 'MarkdownV2');
    expect(error).toMatchObject({ line, column });
    expect(error!.message).toContain(message);
  });
});

describe('Markdown (legacy)', () => {
  it.each([
    ['*bold text*', 'bold text'],
    ['_italic text_', 'italic text'],
    ['[inline URL](http://www.example.com/)', 'inline URL'],
    ['`inline code`', 'inline code'],
    ['```\npre block\n```', 'pre block\n'],
    ['```python\ncode\n```', 'code\n'],
    ['_snake_\\__case_', 'snake_case'],
    ['*2*\\**2=4*', '2*2=4'],
    ['Price: $1.50 (up 5%)! a-b', 'Price: $1.50 (up 5%)! a-b'],
    ['\\*not bold\\*', '*not bold*'],
  ])('accepts %j', (text, plain) => {
    const check = checkTelegramText(text, 'Markdown');
    expect(check.problems).toEqual([]);
    expect(check.plainText).toBe(plain.trim());
  });

  it.each([
    ['*bold', 1, 1, "Can't find the end of the bold (*) entity"],
    ['snake_case', 1, 6, 'italic (_)'],
    ['a `b', 1, 3, 'code (`)'],
    ['[link', 1, 1, 'link'],
  ])('rejects %j at line %i, column %i', (text, line, column, message) => {
    const [error] = errorsOf(text, 'Markdown');
    expect(error).toMatchObject({ line, column });
    expect(error!.message).toContain(message);
  });
});

describe('warnings', () => {
  it.each([
    ['MarkdownV2', '[a [b](x.io)](y.io)', 'A link cannot contain another link'],
    ['MarkdownV2', '[docs](docs)', "does not read 'docs' as a URL"],
    ['Markdown', '[link](http://x.io', 'Telegram takes the rest of the text as the URL'],
    ['HTML', '<tg-time unix="soon">x</tg-time>', 'no positive unix attribute'],
  ] as const)('%s: accepts %j with a warning', (mode, text, message) => {
    const { problems } = checkTelegramText(text, mode);
    expect(problems.map((p) => p.severity)).toEqual(['warning']);
    expect(problems[0]!.message).toContain(message);
  });
});

describe('length after entity parsing', () => {
  it.each(['HTML', 'MarkdownV2', 'Markdown'] as const)('%s: 1 to 4096 characters of text', (mode) => {
    const bold = mode === 'HTML' ? (s: string) => `<b>${s}</b>` : (s: string) => `*${s}*`;
    expect(errorsOf(bold('x'.repeat(4096)), mode)).toEqual([]);
    expect(checkTelegramText(bold('x'.repeat(4096)), mode).length).toBe(4096);
    const [tooLong] = errorsOf(bold('x'.repeat(4097)), mode);
    expect(tooLong?.message).toContain('4097 characters');
    expect(tooLong?.message).toContain('at most 4096');
    expect(errorsOf(bold('  '), mode)[0]?.message).toContain('empty');
    expect(errorsOf('', mode)[0]?.message).toContain('empty');
  });

  it('counts characters outside the BMP as two, as Telegram does (UTF-16)', () => {
    expect(checkTelegramText('🚀', 'HTML').length).toBe(2);
    expect(errorsOf('🚀'.repeat(2048), 'HTML')).toEqual([]);
    expect(errorsOf('🚀'.repeat(2049), 'HTML')).toHaveLength(1);
  });

  it('ignores surrounding white space', () => {
    expect(checkTelegramText('\n  <b>hi</b>  \n', 'HTML').length).toBe(2);
  });
});
