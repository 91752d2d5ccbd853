import type { ParseMode } from '@lumi/contract';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
      const dateTime = child.getAttribute('datetime');
      const attributes = `${href ? ` href="${href}"` : ''}${language ? ` lang="${language}"` : ''}${dateTime ? ` datetime="${dateTime}"` : ''}`;
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
  [
    'HTML',
    'link to the URL as Telegram writes it',
    '<a href="T.me/lumi">Lumi</a>',
    '<a href="http://t.me/lumi">Lumi</a>',
  ],
  ['HTML', 'link from a URL as its text', '<a>t.me/lumi</a>', '<a href="http://t.me/lumi">t.me/lumi</a>'],
  ['HTML', 'javascript link is no link', '<a href="javascript:alert(1)">x</a>', 'x'],
  [
    'HTML',
    'tg link is kept',
    '<a href="tg://resolve?domain=lumi">x</a>',
    '<a href="tg://resolve?domain=lumi">x</a>',
  ],
  [
    'HTML',
    'mention of a user by id',
    '<a href="tg://user?id=42">Ann</a>',
    '<text_mention>Ann</text_mention>',
  ],
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
  ['HTML', 'custom emoji shows its text', '<tg-emoji emoji-id="1">👍</tg-emoji>', '<span>👍</span>'],
  [
    'HTML',
    'time without a format shows its text',
    '<tg-time unix="1647531900">22:45 tomorrow</tg-time>',
    '<date_time datetime="2022-03-17T15:45:00.000Z">22:45 tomorrow</date_time>',
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
  [
    'MarkdownV2',
    'expandable block quote',
    '>hidden\n>more||',
    '<blockquote><div>hidden\nmore</div><button>Show more</button></blockquote>',
  ],
  [
    'MarkdownV2',
    "'**>' alone does not make a quote expandable",
    '**>quote\n>more',
    '<blockquote>quote\nmore</blockquote>',
  ],
  ['MarkdownV2', 'an unescaped reserved character shows the raw text', 'Price 1.5', 'Price 1.5'],
  ['MarkdownV2', 'an unclosed entity shows the raw text', '*bold', '*bold'],
  [
    'Markdown',
    'every entity',
    '*b* _i_ `c` [l](https://x.io)',
    '<strong>b</strong> <em>i</em> <code>c</code> <a href="https://x.io/">l</a>',
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

  it('expands a long quote on request', async () => {
    render(<TelegramMessage text={'>one\n>two\n>three\n>four||'} parseMode="MarkdownV2" />);
    const toggle = screen.getByRole('button', { name: 'Show more' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Show less');
  });

  describe('dates', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** What the reader sees of a date entity over the text 'then'. */
    const dateShown = (format: string) => {
      render(
        <TelegramMessage
          text={`<tg-time unix="1647531900" format="${format}">then</tg-time>`}
          parseMode="HTML"
        />,
      );
      const time = screen.getByText((_, element) => element?.tagName === 'TIME');
      expect(time).toHaveAttribute('datetime', '2022-03-17T15:45:00.000Z');
      return time.textContent ?? '';
    };
    const at = new Date(1647531900 * 1000);

    it.each([
      ['D', { dateStyle: 'long' }],
      ['d', { dateStyle: 'short' }],
      ['t', { timeStyle: 'short' }],
      ['w', { weekday: 'long' }],
    ] as const)("shows format '%s' in the reader's zone and language", (format, options) => {
      expect(dateShown(format)).toBe(new Intl.DateTimeFormat(undefined, options).format(at));
    });

    it('shows the weekday, then the time, then the date', () => {
      const parts = [{ weekday: 'long' }, { timeStyle: 'medium' }, { dateStyle: 'long' }] as const;
      const expected = parts
        .map((options) => new Intl.DateTimeFormat(undefined, options).format(at))
        .join(', ');
      expect(dateShown('wDT')).toBe(expected);
    });

    it('shows a relative date relative to now', () => {
      vi.useFakeTimers({ toFake: ['Date'], now: (1647531900 - 3 * 24 * 3600) * 1000 });
      const shown = dateShown('r');
      expect(shown).not.toBe('then');
      expect(shown).toContain('3');
    });
  });

  it('opens links in a new tab without handing over the console', () => {
    render(<TelegramMessage text='<a href="https://t.me/x">x</a>' parseMode="HTML" />);
    expect(screen.getByRole('link', { name: 'x' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  });
});
