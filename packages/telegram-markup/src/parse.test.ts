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
    '<link url="tg://user?id=123456789">mention</link>',
  ],
  ['HTML', '<a href="x?a=1&amp;b=&quot;2&quot;">q</a>', '<link url="x?a=1&b="2"">q</link>'],
  ['HTML', '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>', '<custom_emoji>👍</custom_emoji>'],
  ['HTML', '<tg-time unix="1647531900" format="wDT">22:45 tomorrow</tg-time>', '22:45 tomorrow'],
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
  ['HTML', '<a>no href</a>', '<link url="">no href</link>'],
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
  ['MarkdownV2', '![👍](tg://emoji?id=5368324170671202286)', '<custom_emoji>👍</custom_emoji>'],
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
  ] as const)('%s: tells where each value marker sits', (parseMode, text, expected) => {
    const contexts: SlotContext[] = [];
    parseMarkup(parseMode, text, { onSlot: (index, context) => (contexts[index] = context) });
    expect(contexts).toEqual(expected);
  });
});
