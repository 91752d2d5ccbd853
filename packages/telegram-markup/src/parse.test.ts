import { describe, expect, it } from 'vitest';
import type { TelegramNode } from './entities.js';
import { slotMarker, type SlotContext } from './markup.js';
import { parseMarkup } from './parse.js';
import type { ParseMode } from './parse-mode.js';

/** The entity tree in a compact form: `<bold>a</bold>`, `<link url="…">`, `<pre lang="…">`. */
function show(nodes: readonly TelegramNode[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'text') return node.text;
      let attributes = '';
      if (node.type === 'link') attributes = ` url="${node.url}"`;
      if (node.type === 'text_mention') attributes = ` user=${node.userId}`;
      if (node.type === 'custom_emoji') attributes = ` id=${node.customEmojiId}`;
      if (node.type === 'date_time') attributes = ` unix=${node.unixTime} format="${node.format}"`;
      if (node.type === 'pre' && node.language) attributes = ` lang="${node.language}"`;
      if (node.type === 'blockquote' && node.expandable) attributes = ' expandable';
      return `<${node.type}${attributes}>${show(node.children)}</${node.type}>`;
    })
    .join('');
}

function entitiesOf(parseMode: ParseMode, text: string): string {
  const parsed = parseMarkup(parseMode, text);
  expect(parsed.error).toBeNull();
  return show(parsed.entities);
}

/** Telegram's own examples (https://core.telegram.org/bots/api#formatting-options) and the edges around them. */
const cases: Array<[ParseMode, string, string]> = [
  ['HTML', '<b>bold</b>, <strong>bold</strong>', '<bold>bold</bold>, <bold>bold</bold>'],
  [
    'HTML',
    '<i>a</i><em>b</em><u>c</u><ins>d</ins>',
    '<italic>a</italic><italic>b</italic><underline>c</underline><underline>d</underline>',
  ],
  [
    'HTML',
    '<s>a</s><strike>b</strike><del>c</del>',
    '<strikethrough>a</strikethrough><strikethrough>b</strikethrough><strikethrough>c</strikethrough>',
  ],
  [
    'HTML',
    '<span class="tg-spoiler">a</span><tg-spoiler>b</tg-spoiler>',
    '<spoiler>a</spoiler><spoiler>b</spoiler>',
  ],
  [
    'HTML',
    '<b>bold <i>italic bold <s>italic bold strikethrough <span class="tg-spoiler">spoiler</span></s> <u>underline</u></i> bold</b>',
    '<bold>bold <italic>italic bold <strikethrough>italic bold strikethrough <spoiler>spoiler</spoiler></strikethrough> <underline>underline</underline></italic> bold</bold>',
  ],
  [
    'HTML',
    '<a href="http://www.example.com/">inline URL</a>',
    '<link url="http://www.example.com/">inline URL</link>',
  ],
  [
    'HTML',
    '<a href="tg://user?id=123456789">mention</a>',
    '<text_mention user=123456789>mention</text_mention>',
  ],
  [
    'HTML',
    '<a href="https://x.test?a=1&amp;b=&quot;2&quot;">q</a>',
    '<link url="https://x.test/?a=1&b="2"">q</link>',
  ],
  // Telegram writes the URL it links to in full, and links a bare URL written as the text.
  ['HTML', '<a href="Example.COM/Path">x</a>', '<link url="http://example.com/Path">x</link>'],
  ['HTML', '<a>telegram.org</a>', '<link url="http://telegram.org/">telegram.org</link>'],
  [
    'HTML',
    '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>',
    '<custom_emoji id=5368324170671202286>👍</custom_emoji>',
  ],
  [
    'HTML',
    '<tg-time unix="1647531900" format="wDT">22:45 tomorrow</tg-time>',
    '<date_time unix=1647531900 format="wDT">22:45 tomorrow</date_time>',
  ],
  [
    'HTML',
    '<tg-time unix="1647531900">then</tg-time>',
    '<date_time unix=1647531900 format="">then</date_time>',
  ],
  // '</>' closes whichever tag is open.
  ['HTML', '<b>a <i>b</> c</>', '<bold>a <italic>b</italic> c</bold>'],
  ['HTML', '<code>a &lt; b</code>', '<code>a < b</code>'],
  ['HTML', '<pre>pre-formatted</pre>', '<pre>pre-formatted</pre>'],
  ['HTML', '<pre><code class="language-python">print(1)</code></pre>', '<pre lang="python">print(1)</pre>'],
  [
    'HTML',
    '<blockquote>quote</blockquote><blockquote expandable>more</blockquote>',
    '<blockquote>quote</blockquote><blockquote expandable>more</blockquote>',
  ],
  ['HTML', '&lt;b&gt; &amp; &quot;q&quot; &#128512;&#x1F680;', '<b> & "q" 😀🚀'],
  ['HTML', 'a & b &nbsp;', 'a & b &nbsp;'],
  ['HTML', '<B>upper</B>', '<bold>upper</bold>'],
  // A link to something that is not a URL is no link, and an entity without text is no entity.
  ['HTML', '<a>no href</a>', 'no href'],
  ['HTML', '<a href="javascript:alert(1)">x</a>', 'x'],
  ['HTML', 'a<b></b>b', 'ab'],
  ['MarkdownV2', '*bold \\*text*', '<bold>bold *text</bold>'],
  ['MarkdownV2', '_italic \\*text_', '<italic>italic *text</italic>'],
  [
    'MarkdownV2',
    '__underline__ ~strikethrough~ ||spoiler||',
    '<underline>underline</underline> <strikethrough>strikethrough</strikethrough> <spoiler>spoiler</spoiler>',
  ],
  [
    'MarkdownV2',
    '*bold _italic bold ~italic bold strikethrough ||italic bold strikethrough spoiler||~ __underline italic bold___ bold*',
    '<bold>bold <italic>italic bold <strikethrough>italic bold strikethrough <spoiler>italic bold strikethrough spoiler</spoiler></strikethrough> <underline>underline italic bold</underline></italic> bold</bold>',
  ],
  // '__' is read greedily as underline, so the docs write ___italic underline_\r__ for that nesting.
  ['MarkdownV2', '___italic underline_\r__', '<underline><italic>italic underline</italic>\r</underline>'],
  [
    'MarkdownV2',
    '[inline URL](http://www.example.com/)',
    '<link url="http://www.example.com/">inline URL</link>',
  ],
  ['MarkdownV2', '[Docs](https://example.com/a\\)b)', '<link url="https://example.com/a)b">Docs</link>'],
  [
    'MarkdownV2',
    '![👍](tg://emoji?id=5368324170671202286)',
    '<custom_emoji id=5368324170671202286>👍</custom_emoji>',
  ],
  [
    'MarkdownV2',
    '![22:45 tomorrow](tg://time?unix=1647531900&format=wDT)',
    '<date_time unix=1647531900 format="wDT">22:45 tomorrow</date_time>',
  ],
  ['MarkdownV2', '[Lumi](tg://user?id=42)', '<text_mention user=42>Lumi</text_mention>'],
  ['MarkdownV2', '[docs](example.com)', '<link url="http://example.com/">docs</link>'],
  ['MarkdownV2', '[not a link](nowhere)', 'not a link'],
  ['MarkdownV2', '`inline fixed-width code`', '<code>inline fixed-width code</code>'],
  ['MarkdownV2', '`a.b (c) \\` \\\\`', '<code>a.b (c) ` \\</code>'],
  [
    'MarkdownV2',
    '```\npre-formatted fixed-width code block\n```',
    '<pre>pre-formatted fixed-width code block\n</pre>',
  ],
  ['MarkdownV2', '```python\nprint("x.y")\n```', '<pre lang="python">print("x.y")\n</pre>'],
  // A word that '`' ends is text, not a language.
  ['MarkdownV2', '```abc```', '<pre>abc</pre>'],
  [
    'MarkdownV2',
    '>Block quotation started\n>continued\nafter',
    '<blockquote>Block quotation started\ncontinued\n</blockquote>after',
  ],
  [
    'MarkdownV2',
    '**>Expandable\n>hidden part||',
    '<blockquote expandable>Expandable\nhidden part</blockquote>',
  ],
  // The '||' at the end of the last line makes a quote expandable, not the '**' before its first.
  ['MarkdownV2', '**>quote\n>more\nafter', '<blockquote>quote\nmore\n</blockquote>after'],
  ['MarkdownV2', '>quote||\nafter', '<blockquote expandable>quote\n</blockquote>after'],
  // '\r' is no text at the start of a line: a quote may start after it.
  ['MarkdownV2', 'a\r\n\r>quote', 'a\r\n\r<blockquote>quote</blockquote>'],
  ['MarkdownV2', 'Price: $1\\.50 \\(\\+5%\\)\\!', 'Price: $1.50 (+5%)!'],
  ['Markdown', '*bold text* _italic text_', '<bold>bold text</bold> <italic>italic text</italic>'],
  [
    'Markdown',
    '[inline URL](http://www.example.com/)',
    '<link url="http://www.example.com/">inline URL</link>',
  ],
  ['Markdown', '`inline fixed-width code`', '<code>inline fixed-width code</code>'],
  ['Markdown', '```python\ncode\n```', '<pre lang="python">code\n</pre>'],
  ['Markdown', '*a _b_*', '<bold>a _b_</bold>'],
  // Nothing escapes inside an entity: the docs close, escape and reopen (*2*\**2=4* is bold "2*2=4").
  ['Markdown', '*2*\\**2=4*', '<bold>2</bold>*<bold>2=4</bold>'],
  ['Markdown', '\\*x\\* \\_y\\_ 1.5 (a-b)!', '*x* _y_ 1.5 (a-b)!'],
];

describe('parseMarkup', () => {
  it.each(cases)('%s: %j', (parseMode, text, expected) => {
    expect(entitiesOf(parseMode, text)).toBe(expected);
  });

  it('returns the text after entity parsing beside the entities', () => {
    const parsed = parseMarkup('MarkdownV2', '*a* _b_ \\.');
    expect(parsed).toMatchObject({ text: 'a b .', error: null, warnings: [] });
  });

  it('lists the entities as the Bot API does, in UTF-16 code units', () => {
    const parsed = parseMarkup(
      'HTML',
      '🚀 <b>bold <a href="t.me/lumi">link</a></b> <tg-time unix="60" format="r">now</tg-time> <blockquote expandable>q</blockquote>',
    );
    expect(parsed.messageEntities).toEqual([
      { type: 'bold', offset: 3, length: 9 },
      { type: 'text_link', offset: 8, length: 4, url: 'http://t.me/lumi' },
      { type: 'date_time', offset: 13, length: 3, unix_time: 60, date_time_format: 'r' },
      { type: 'expandable_blockquote', offset: 17, length: 1 },
    ]);
  });

  it('warns where Telegram accepts the markup but makes no link of it', () => {
    const parsed = parseMarkup('MarkdownV2', '[here](nowhere) [a [b](x.io)](y.io)');
    expect(parsed.error).toBeNull();
    expect(parsed.warnings.map((warning) => warning.message)).toEqual([
      "[…](nowhere) makes no link: Telegram does not read 'nowhere' as a URL and shows only the text",
      'A link cannot contain another link',
    ]);
  });

  it.each([
    ['HTML', '<b>bold', '<b> is never closed', 0],
    ['HTML', '<div>x</div>', 'Unsupported tag <div>', 0],
    ['MarkdownV2', 'x.y', "Character '.' is reserved", 1],
    ['MarkdownV2', '*a\n>b', "Can't find the end of the bold (*) entity", 0],
    ['Markdown', '_open', "Can't find the end of the italic (_) entity", 0],
  ] as const)('%s: stops at the first error in %j', (parseMode, text, message, offset) => {
    const parsed = parseMarkup(parseMode, text);
    expect(parsed.error?.message).toContain(message);
    expect(parsed.error?.offset).toBe(offset);
  });

  it.each([
    ['HTML', `<b>${slotMarker(0)}</b><a href="${slotMarker(1)}">x</a>`, ['text', 'attribute']],
    ['MarkdownV2', `*${slotMarker(0)}* \`${slotMarker(1)}\` [x](${slotMarker(2)})`, ['text', 'code', 'url']],
    ['MarkdownV2', `\`\`\`\n${slotMarker(0)}\n\`\`\``, ['pre']],
    [
      'Markdown',
      `*${slotMarker(0)}* _${slotMarker(1)}_ [${slotMarker(2)}](${slotMarker(3)})`,
      ['bold', 'italic', 'link_text', 'url'],
    ],
    // An id or date that is a value is not known yet: it does not stop the parser from reading on.
    [
      'HTML',
      `<tg-emoji emoji-id="${slotMarker(0)}">x</tg-emoji><tg-time unix="1" format="${slotMarker(1)}">y</tg-time><code>${slotMarker(2)}</code>`,
      ['attribute', 'attribute', 'text'],
    ],
    ['MarkdownV2', `![x](tg://emoji?id=${slotMarker(0)}) \`${slotMarker(1)}\``, ['url', 'code']],
  ] as const)('%s: tells where each value marker sits', (parseMode, text, expected) => {
    const contexts: SlotContext[] = [];
    parseMarkup(parseMode, text, { onSlot: (index, context) => (contexts[index] = context) });
    expect(contexts).toEqual(expected);
  });
});
