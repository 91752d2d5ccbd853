import type { ParseVector } from './parse-vector.js';

/**
 * MarkdownV2 parse mode, the messages Telegram accepts.
 *
 * The `parse_markdown` cases of TDLib's test/message_entities.cpp (github.com/tdlib/td, commit
 * 022d60202e446ad1287b9fb68e687c8a0760788b), whose parser the Bot API server runs for sendMessage,
 * transcribed as data. Entities are named as Bot API MessageEntity types with offsets and lengths in UTF-16
 * code units, a date's flags as the date_time_format the Bot API reports; a refused message keeps TDLib's
 * error text.
 */
export const TDLIB_MARKDOWN_V2_ACCEPTED: ParseVector[] = [
  { input: '', text: '', entities: [] },
  { input: '\\\\', text: '\\', entities: [] },
  { input: '\\\\\\', text: '\\\\', entities: [] },
  { input: '\\\\\\\\\\_\\*\\`', text: '\\\\_*`', entities: [] },
  { input: '➡️ ➡️', text: '➡️ ➡️', entities: [] },
  { input: '🏟 🏟``', text: '🏟 🏟', entities: [] },
  { input: '🏟 🏟_abac \\* asd _', text: '🏟 🏟abac * asd ', entities: [['italic', 5, 11]] },
  { input: '🏟 \\.🏟_🏟\\. 🏟_', text: '🏟 .🏟🏟. 🏟', entities: [['italic', 6, 6]] },
  { input: '\\\\\\a\\b\\c\\d\\e\\f\\1\\2\\3\\4\\➡️\\', text: '\\abcdef1234\\➡️\\', entities: [] },
  { input: '➡️ ➡️_➡️ ➡️_', text: '➡️ ➡️➡️ ➡️', entities: [['italic', 5, 5]] },
  {
    input: '➡️ ➡️_➡️ ➡️_*➡️ ➡️*',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['italic', 5, 5],
      ['bold', 10, 5],
    ],
  },
  { input: '🏟 🏟_🏟 \\.🏟_', text: '🏟 🏟🏟 .🏟', entities: [['italic', 5, 6]] },
  {
    input: '🏟 🏟_🏟 *🏟*_',
    text: '🏟 🏟🏟 🏟',
    entities: [
      ['italic', 5, 5],
      ['bold', 8, 2],
    ],
  },
  {
    input: '🏟 🏟_🏟 __🏟___',
    text: '🏟 🏟🏟 🏟',
    entities: [
      ['italic', 5, 5],
      ['underline', 8, 2],
    ],
  },
  {
    input: '🏟 🏟__🏟 _🏟_ __',
    text: '🏟 🏟🏟 🏟 ',
    entities: [
      ['underline', 5, 6],
      ['italic', 8, 2],
    ],
  },
  {
    input: '🏟 🏟__🏟 _🏟_\\___',
    text: '🏟 🏟🏟 🏟_',
    entities: [
      ['underline', 5, 6],
      ['italic', 8, 2],
    ],
  },
  { input: '🏟 🏟`🏟 🏟```', text: '🏟 🏟🏟 🏟', entities: [['code', 5, 5]] },
  { input: '🏟 🏟```🏟 🏟```', text: '🏟 🏟 🏟', entities: [['pre', 5, 3, '🏟']] },
  { input: '🏟 🏟```🏟\n🏟```', text: '🏟 🏟🏟', entities: [['pre', 5, 2, '🏟']] },
  { input: '🏟 🏟```🏟\r🏟```', text: '🏟 🏟🏟', entities: [['pre', 5, 2, '🏟']] },
  { input: '🏟 🏟```🏟\n\r🏟```', text: '🏟 🏟🏟', entities: [['pre', 5, 2, '🏟']] },
  { input: '🏟 🏟```🏟\r\n🏟```', text: '🏟 🏟🏟', entities: [['pre', 5, 2, '🏟']] },
  { input: '🏟 🏟```🏟\n\n🏟```', text: '🏟 🏟\n🏟', entities: [['pre', 5, 3, '🏟']] },
  { input: '🏟 🏟```🏟\r\r🏟```', text: '🏟 🏟\r🏟', entities: [['pre', 5, 3, '🏟']] },
  { input: '🏟 🏟```🏟 \\\\\\`🏟```', text: '🏟 🏟 \\`🏟', entities: [['pre', 5, 5, '🏟']] },
  { input: '🏟 🏟**', text: '🏟 🏟', entities: [] },
  { input: '||test||', text: 'test', entities: [['spoiler', 0, 4]] },
  { input: '🏟 🏟``', text: '🏟 🏟', entities: [] },
  { input: '🏟 🏟``````', text: '🏟 🏟', entities: [] },
  { input: '🏟 🏟____', text: '🏟 🏟', entities: [] },
  {
    input: '`_* *_`__*` `*__',
    text: '_* *_ ',
    entities: [
      ['code', 0, 5],
      ['code', 5, 1],
      ['bold', 5, 1],
      ['underline', 5, 1],
    ],
  },
  {
    input: '_* * ` `_',
    text: '   ',
    entities: [
      ['italic', 0, 3],
      ['bold', 0, 1],
      ['code', 2, 1],
    ],
  },
  { input: '[](telegram.org)', text: '', entities: [] },
  { input: '[ ](telegram.org)', text: ' ', entities: [['text_link', 0, 1, 'http://telegram.org/']] },
  { input: '[ ](as)', text: ' ', entities: [] },
  {
    input: '[telegram\\.org]',
    text: 'telegram.org',
    entities: [['text_link', 0, 12, 'http://telegram.org/']],
  },
  {
    input: '[telegram\\.org]a',
    text: 'telegram.orga',
    entities: [['text_link', 0, 12, 'http://telegram.org/']],
  },
  {
    input: '[telegram\\.org](telegram.dog)',
    text: 'telegram.org',
    entities: [['text_link', 0, 12, 'http://telegram.dog/']],
  },
  {
    input: '[telegram\\.org](https://telegram.dog?)',
    text: 'telegram.org',
    entities: [['text_link', 0, 12, 'https://telegram.dog/?']],
  },
  {
    input: '[telegram\\.org](https://telegram.dog?\\\\\\()',
    text: 'telegram.org',
    entities: [['text_link', 0, 12, 'https://telegram.dog/?\\(']],
  },
  { input: '[telegram\\.org]()', text: 'telegram.org', entities: [] },
  { input: '[telegram\\.org](asdasd)', text: 'telegram.org', entities: [] },
  {
    input: '[telegram\\.org](tg:user?id=123456)',
    text: 'telegram.org',
    entities: [['text_mention', 0, 12, 123456]],
  },
  {
    input: '🏟 🏟![👍](TG://EMoJI/?test=1231&id=25#id=32)a',
    text: '🏟 🏟👍a',
    entities: [['custom_emoji', 5, 2, '25']],
  },
  {
    input: '🏟 🏟![👍](TG://TiME/?test=1231&unix=25#unix=32)a',
    text: '🏟 🏟👍a',
    entities: [['date_time', 5, 2, 25, '']],
  },
  {
    input: '🏟 🏟![👍](TG://TiME/?test=1231&format=R&unix=25#unix=32)a',
    text: '🏟 🏟👍a',
    entities: [['date_time', 5, 2, 25, 'r']],
  },
  {
    input: '🏟 🏟![👍](TG://TiME/?test=1231&format=dt&unix=25#unix=32)a',
    text: '🏟 🏟👍a',
    entities: [['date_time', 5, 2, 25, 'dt']],
  },
  {
    input: '🏟 🏟![👍](TG://TiME/?test=1231&format=DT&unix=25#unix=32)a',
    text: '🏟 🏟👍a',
    entities: [['date_time', 5, 2, 25, 'DT']],
  },
  {
    input: '🏟 🏟![👍](TG://TiME/?test=1231&format=w&unix=25#unix=32)a',
    text: '🏟 🏟👍a',
    entities: [['date_time', 5, 2, 25, 'w']],
  },
  {
    input: '🏟 🏟![👍](TG://TiME/?test=1231&format=Wt&unix=25#unix=32)a',
    text: '🏟 🏟👍a',
    entities: [['date_time', 5, 2, 25, 'wt']],
  },
  { input: '> \n> \n>', text: ' \n \n', entities: [['blockquote', 0, 4]] },
  { input: '> \\>\n \\> \n>', text: ' >\n > \n', entities: [['blockquote', 0, 3]] },
  { input: 'abc\n> \n> \n>\ndef', text: 'abc\n \n \n\ndef', entities: [['blockquote', 4, 5]] },
  { input: '>', text: '', entities: [] },
  { input: '>a', text: 'a', entities: [['blockquote', 0, 1]] },
  { input: '\r>a', text: '\ra', entities: [['blockquote', 1, 1]] },
  { input: '\r\r>\r\ra\r\n\r', text: '\r\r\r\ra\r\n\r', entities: [['blockquote', 2, 5]] },
  {
    input:
      '>*bold _italic bold ~italic bold strikethrough ||italic bold strikethrough spoiler||~ __underline italic bold___ bold*',
    text: 'bold italic bold italic bold strikethrough italic bold strikethrough spoiler underline italic bold bold',
    entities: [
      ['blockquote', 0, 103],
      ['bold', 0, 103],
      ['italic', 5, 93],
      ['strikethrough', 17, 59],
      ['spoiler', 43, 33],
      ['underline', 77, 21],
    ],
  },
  {
    input: '>*b\n>ld \n>bo\n>ld*\nasd\ndef',
    text: 'b\nld \nbo\nld\nasd\ndef',
    entities: [
      ['blockquote', 0, 12],
      ['bold', 0, 11],
    ],
  },
  {
    input: '*a\n>b\n>ld \n>bo\n>ld\nasd*\ndef',
    text: 'a\nb\nld \nbo\nld\nasd\ndef',
    entities: [
      ['bold', 0, 17],
      ['blockquote', 2, 12],
    ],
  },
  {
    input: '>`b\n>ld \n>bo\nld`\n>asd\ndef',
    text: 'b\n>ld \n>bo\nld\nasd\ndef',
    entities: [
      ['blockquote', 0, 18],
      ['code', 0, 13],
    ],
  },
  {
    input: '`>b\n>ld \n>bo\nld`\n>asd\ndef',
    text: '>b\n>ld \n>bo\nld\nasd\ndef',
    entities: [
      ['code', 0, 14],
      ['blockquote', 15, 4],
    ],
  },
  { input: '>1', text: '1', entities: [['blockquote', 0, 1]] },
  { input: '>\n1', text: '\n1', entities: [['blockquote', 0, 1]] },
  {
    input: '>\n\r>2',
    text: '\n\r2',
    entities: [
      ['blockquote', 0, 1],
      ['blockquote', 2, 1],
    ],
  },
  {
    input: '>\n**>2',
    text: '\n2',
    entities: [
      ['blockquote', 0, 1],
      ['blockquote', 1, 1],
    ],
  },
  { input: '>**\n>2', text: '\n2', entities: [['blockquote', 0, 2]] },
  {
    input: '>*abcd*',
    text: 'abcd',
    entities: [
      ['blockquote', 0, 4],
      ['bold', 0, 4],
    ],
  },
  {
    input: '>*abcd*\n',
    text: 'abcd\n',
    entities: [
      ['blockquote', 0, 5],
      ['bold', 0, 4],
    ],
  },
  {
    input: '*>abcd\n*',
    text: 'abcd\n',
    entities: [
      ['blockquote', 0, 5],
      ['bold', 0, 5],
    ],
  },
  {
    input: 'abc\n>def\n>def\n\r>ghi2\njkl',
    text: 'abc\ndef\ndef\n\rghi2\njkl',
    entities: [
      ['blockquote', 4, 8],
      ['blockquote', 13, 5],
    ],
  },
  {
    input: '>asd\n>q||e||w||\nasdad',
    text: 'asd\nqew\nasdad',
    entities: [
      ['expandable_blockquote', 0, 8],
      ['spoiler', 5, 1],
    ],
  },
  {
    input: '>asd\n>q||ew||\nasdad',
    text: 'asd\nqew\nasdad',
    entities: [
      ['blockquote', 0, 8],
      ['spoiler', 5, 2],
    ],
  },
  {
    input: '>asd\r\n>q||e||w||\r\nasdad',
    text: 'asd\r\nqew\r\nasdad',
    entities: [
      ['expandable_blockquote', 0, 10],
      ['spoiler', 6, 1],
    ],
  },
  {
    input: '>asd\r\n>q||ew||\r\nasdad',
    text: 'asd\r\nqew\r\nasdad',
    entities: [
      ['blockquote', 0, 10],
      ['spoiler', 6, 2],
    ],
  },
  {
    input: '>asd\r\n>q||e||w||\r\n',
    text: 'asd\r\nqew\r\n',
    entities: [
      ['expandable_blockquote', 0, 10],
      ['spoiler', 6, 1],
    ],
  },
  {
    input: '>asd\r\n>q||ew||\r\n',
    text: 'asd\r\nqew\r\n',
    entities: [
      ['blockquote', 0, 10],
      ['spoiler', 6, 2],
    ],
  },
  {
    input: '>asd\r\n>q||e||w||',
    text: 'asd\r\nqew',
    entities: [
      ['expandable_blockquote', 0, 8],
      ['spoiler', 6, 1],
    ],
  },
  {
    input: '>asd\r\n>q||ew||',
    text: 'asd\r\nqew',
    entities: [
      ['blockquote', 0, 8],
      ['spoiler', 6, 2],
    ],
  },
  { input: '>||', text: '', entities: [] },
];
