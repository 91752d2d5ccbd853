import type { ParseVector } from './parse-vector.js';

/**
 * Legacy Markdown parse mode: the examples of the Bot API's "Markdown style" section
 * (https://core.telegram.org/bots/api#markdown-style) and the edges of the rules it states, with what
 * Telegram makes of them (TDLib's parse_markdown, which TDLib's own tests do not cover). Entities are
 * named as Bot API MessageEntity types with offsets and lengths in UTF-16 code units.
 */
export const BOT_API_MARKDOWN: ParseVector[] = [
  { input: '*bold text*', text: 'bold text', entities: [['bold', 0, 9]] },
  { input: '_italic text_', text: 'italic text', entities: [['italic', 0, 11]] },
  {
    input: '[inline URL](http://www.example.com/)',
    text: 'inline URL',
    entities: [['text_link', 0, 10, 'http://www.example.com/']],
  },
  {
    input: '[inline mention of a user](tg://user?id=123456789)',
    text: 'inline mention of a user',
    entities: [['text_mention', 0, 24, 123456789]],
  },
  { input: '`inline fixed-width code`', text: 'inline fixed-width code', entities: [['code', 0, 23]] },
  {
    input: '```\npre-formatted fixed-width code block\n```',
    text: 'pre-formatted fixed-width code block\n',
    entities: [['pre', 0, 37]],
  },
  {
    input: '```python\npre-formatted fixed-width code block written in the Python programming language\n```',
    text: 'pre-formatted fixed-width code block written in the Python programming language\n',
    entities: [['pre', 0, 80, 'python']],
  },
  // "Escaping inside entities is not allowed, so entity must be closed first and reopened again".
  {
    input: '_snake_\\__case_',
    text: 'snake_case',
    entities: [
      ['italic', 0, 5],
      ['italic', 6, 4],
    ],
  },
  {
    input: '*2*\\**2=4*',
    text: '2*2=4',
    entities: [
      ['bold', 0, 1],
      ['bold', 2, 3],
    ],
  },
  { input: '\\_ \\* \\` \\[', text: '_ * ` [', entities: [] },
  // "Entities must not be nested": the first '*' closes the bold, whatever is inside.
  { input: '*bold _not italic_*', text: 'bold _not italic_', entities: [['bold', 0, 17]] },
  { input: 'Price: $1.50 (up 5%)! a-b', text: 'Price: $1.50 (up 5%)! a-b', entities: [] },
  // A link without a URL links to its text, when that is a URL; one Telegram cannot read makes no link.
  { input: '[telegram.org]', text: 'telegram.org', entities: [['text_link', 0, 12, 'http://telegram.org/']] },
  { input: '[text](not a url)', text: 'text', entities: [] },
  {
    input: '[link](http://example.com',
    text: 'link',
    entities: [['text_link', 0, 4, 'http://example.com/']],
  },
  // An empty entity is dropped; an empty link leaves its (…) as text.
  { input: 'a**b', text: 'ab', entities: [] },
  { input: '[](http://x.y)', text: '(http://x.y)', entities: [] },
  { input: '_unclosed', refused: "Can't find end of the entity starting at byte offset 0" },
  { input: 'a `b', refused: "Can't find end of the entity starting at byte offset 2" },
  { input: '[link', refused: "Can't find end of the entity starting at byte offset 0" },
];
