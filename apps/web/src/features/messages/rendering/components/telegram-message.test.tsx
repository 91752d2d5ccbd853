import type { ParseMode } from '@lumi/contract';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TelegramMessage } from './telegram-message';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The message as a reader meets it: element names (a spoiler by its role), link targets and text. */
function markup(node: Node): string {
  return [...node.childNodes]
    .map((child) => {
      if (!(child instanceof HTMLElement)) return escape(child.textContent ?? '');
      const name = child.dataset.entity ?? child.tagName.toLowerCase();
      const href = child.getAttribute('href');
      const language = child.dataset.language;
      const attributes = `${href ? ` href="${href}"` : ''}${language ? ` lang="${language}"` : ''}`;
      return `<${name}${attributes}>${markup(child)}</${name}>`;
    })
    .join('');
}

function shown(text: string, parseMode: ParseMode): string {
  const { container } = render(<TelegramMessage text={text} parseMode={parseMode} />);
  return markup(container.firstElementChild!);
}

const cases: Array<[ParseMode, string, string, string]> = [
  ['HTML', 'bold', '<b>a</b> <strong>b</strong>', '<strong>a</strong> <strong>b</strong>'],
  ['HTML', 'italic', '<i>a</i><em>b</em>', '<em>a</em><em>b</em>'],
  ['HTML', 'underline', '<u>a</u><ins>b</ins>', '<u>a</u><u>b</u>'],
  ['HTML', 'strikethrough', '<s>a</s><strike>b</strike><del>c</del>', '<s>a</s><s>b</s><s>c</s>'],
  [
    'HTML',
    'spoiler',
    '<tg-spoiler>a</tg-spoiler><span class="tg-spoiler">b</span>',
    '<spoiler>a</spoiler><spoiler>b</spoiler>',
  ],
  ['HTML', 'code with an escaped character', '<code>a &lt; b</code>', '<code>a &lt; b</code>'],
  [
    'HTML',
    'pre with a language',
    'Run:\n<pre><code class="language-python">print(1)</code></pre>\nDone',
    'Run:<pre lang="python"><span>python</span><code>print(1)</code></pre>Done',
  ],
  ['HTML', 'link', '<a href="https://t.me/lumi">Lumi</a>', '<a href="https://t.me/lumi">Lumi</a>'],
  ['HTML', 'javascript link is not clickable', '<a href="javascript:alert(1)">x</a>', '<span>x</span>'],
  ['HTML', 'block quote', '<blockquote>Quoted</blockquote>\nAfter', '<blockquote>Quoted</blockquote>After'],
  [
    'HTML',
    'nested entities',
    '<b>bold <i>both <u>all</u></i></b>',
    '<strong>bold <em>both <u>all</u></em></strong>',
  ],
  ['HTML', 'line breaks', 'one\ntwo', 'one\ntwo'],
  [
    'HTML',
    'escaped markup is text',
    '&lt;b&gt;no&lt;/b&gt; &amp; &quot;q&quot;',
    '&lt;b&gt;no&lt;/b&gt; &amp; "q"',
  ],
  ['HTML', 'numeric entities', '&#128512;&#x1F680;', '😀🚀'],
  [
    'HTML',
    'custom emoji and time show their text',
    '<tg-emoji emoji-id="1">👍</tg-emoji>',
    '<span>👍</span>',
  ],
  ['HTML', 'an unclosed tag shows the raw text', '<b>bold', '&lt;b&gt;bold'],
  ['HTML', 'an unsupported tag shows the raw text', '<div>x</div>', '&lt;div&gt;x&lt;/div&gt;'],
  [
    'MarkdownV2',
    'every inline entity',
    '*b* _i_ __u__ ~s~ ||p||',
    '<strong>b</strong> <em>i</em> <u>u</u> <s>s</s> <spoiler>p</spoiler>',
  ],
  ['MarkdownV2', 'code', '`a\\`b`', '<code>a`b</code>'],
  [
    'MarkdownV2',
    'pre with a language',
    '```js\nlet a = 1;\n```',
    '<pre lang="js"><span>js</span><code>let a = 1;</code></pre>',
  ],
  [
    'MarkdownV2',
    'link with an escaped parenthesis',
    '[Docs](https://example.com/a\\)b)',
    '<a href="https://example.com/a)b">Docs</a>',
  ],
  [
    'MarkdownV2',
    'nested entities',
    '*bold _italic ~strike~_*',
    '<strong>bold <em>italic <s>strike</s></em></strong>',
  ],
  ['MarkdownV2', 'escaped reserved characters', '1\\.5 \\*x\\* \\#tag', '1.5 *x* #tag'],
  [
    'MarkdownV2',
    'block quote over lines',
    '>first\n>second\nafter',
    '<blockquote>first\nsecond</blockquote>after',
  ],
  ['MarkdownV2', 'expandable block quote', '**>hidden\n>more||', '<blockquote>hidden\nmore</blockquote>'],
  ['MarkdownV2', 'an unescaped reserved character shows the raw text', 'Price 1.5', 'Price 1.5'],
  ['MarkdownV2', 'an unclosed entity shows the raw text', '*bold', '*bold'],
  [
    'Markdown',
    'every entity',
    '*b* _i_ `c` [l](https://x.io)',
    '<strong>b</strong> <em>i</em> <code>c</code> <a href="https://x.io">l</a>',
  ],
  ['Markdown', 'escaped characters', '\\*x\\* \\_y\\_ 1.5', '*x* _y_ 1.5'],
  ['Markdown', 'nothing nests or escapes inside an entity', '*a _b_*', '<strong>a _b_</strong>'],
  ['Markdown', 'pre', '```\ncode\n```', '<pre><code>code</code></pre>'],
  ['Markdown', 'an unclosed entity shows the raw text', '_open', '_open'],
];

describe('TelegramMessage', () => {
  it.each(cases)('%s: %s', (parseMode, _name, text, expected) => {
    expect(shown(text, parseMode)).toBe(expected);
  });

  it('reveals a spoiler on click and by keyboard', async () => {
    render(<TelegramMessage text="||secret||" parseMode="MarkdownV2" />);
    const spoiler = screen.getByRole('button', { name: 'secret' });
    expect(spoiler).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(spoiler);
    expect(spoiler).toHaveAttribute('aria-pressed', 'true');
    spoiler.focus();
    await userEvent.keyboard('{Enter}');
    expect(spoiler).toHaveAttribute('aria-pressed', 'false');
  });

  it('opens links in a new tab without handing over the console', () => {
    render(<TelegramMessage text='<a href="https://t.me/x">x</a>' parseMode="HTML" />);
    expect(screen.getByRole('link', { name: 'x' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  });
});
