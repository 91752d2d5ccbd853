import type { ParseVector } from './parse-vector.js';

/**
 * HTML parse mode, the messages Telegram accepts.
 *
 * The `parse_html` cases of TDLib's test/message_entities.cpp (github.com/tdlib/td, commit
 * 022d60202e446ad1287b9fb68e687c8a0760788b), whose parser the Bot API server runs for sendMessage,
 * transcribed as data. Entities are named as Bot API MessageEntity types with offsets and lengths in UTF-16
 * code units, a date's flags as the date_time_format the Bot API reports; a refused message keeps TDLib's
 * error text.
 */
export const TDLIB_HTML_ACCEPTED: ParseVector[] = [
  { input: '', text: '', entities: [] },
  { input: '➡️ ➡️', text: '➡️ ➡️', entities: [] },
  {
    input: '&ge;&lt;&gt;&amp;&quot;&laquo;&raquo;&#12345678;',
    text: '&ge;<>&"&laquo;&raquo;&#12345678;',
    entities: [],
  },
  { input: '&Or;', text: '&Or;', entities: [] },
  { input: '➡️ ➡️<i>➡️ ➡️</i>', text: '➡️ ➡️➡️ ➡️', entities: [['italic', 5, 5]] },
  { input: '➡️ ➡️<em>➡️ ➡️</em>', text: '➡️ ➡️➡️ ➡️', entities: [['italic', 5, 5]] },
  { input: '➡️ ➡️<b>➡️ ➡️</b>', text: '➡️ ➡️➡️ ➡️', entities: [['bold', 5, 5]] },
  { input: '➡️ ➡️<strong>➡️ ➡️</strong>', text: '➡️ ➡️➡️ ➡️', entities: [['bold', 5, 5]] },
  { input: '➡️ ➡️<u>➡️ ➡️</u>', text: '➡️ ➡️➡️ ➡️', entities: [['underline', 5, 5]] },
  { input: '➡️ ➡️<ins>➡️ ➡️</ins>', text: '➡️ ➡️➡️ ➡️', entities: [['underline', 5, 5]] },
  { input: '➡️ ➡️<s>➡️ ➡️</s>', text: '➡️ ➡️➡️ ➡️', entities: [['strikethrough', 5, 5]] },
  { input: '➡️ ➡️<strike>➡️ ➡️</strike>', text: '➡️ ➡️➡️ ➡️', entities: [['strikethrough', 5, 5]] },
  { input: '➡️ ➡️<del>➡️ ➡️</del>', text: '➡️ ➡️➡️ ➡️', entities: [['strikethrough', 5, 5]] },
  { input: '➡️ ➡️<blockquote>➡️ ➡️</blockquote>', text: '➡️ ➡️➡️ ➡️', entities: [['blockquote', 5, 5]] },
  {
    input: '➡️ ➡️<i>➡️ ➡️</i><b>➡️ ➡️</b>',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['italic', 5, 5],
      ['bold', 10, 5],
    ],
  },
  { input: '🏟 🏟<i>🏟 &lt🏟</i>', text: '🏟 🏟🏟 <🏟', entities: [['italic', 5, 6]] },
  {
    input: '🏟 🏟<i>🏟 &gt;<b aba   =   caba>&lt🏟</b></i>',
    text: '🏟 🏟🏟 ><🏟',
    entities: [
      ['italic', 5, 7],
      ['bold', 9, 3],
    ],
  },
  { input: '🏟 🏟&lt;<i    aba  =  190azAz-.   >a</i>', text: '🏟 🏟<a', entities: [['italic', 6, 1]] },
  { input: '🏟 🏟&lt;<i    aba  =  190azAz-.>a</i>', text: '🏟 🏟<a', entities: [['italic', 6, 1]] },
  { input: '🏟 🏟&lt;<i    aba  =  "&lt;&gt;&quot;">a</i>', text: '🏟 🏟<a', entities: [['italic', 6, 1]] },
  { input: "🏟 🏟&lt;<i    aba  =  '&lt;&gt;&quot;'>a</i>", text: '🏟 🏟<a', entities: [['italic', 6, 1]] },
  { input: "🏟 🏟&lt;<i    aba  =  '&lt;&gt;&quot;'>a</>", text: '🏟 🏟<a', entities: [['italic', 6, 1]] },
  { input: '🏟 🏟&lt;<i>🏟 🏟&lt;</>', text: '🏟 🏟<🏟 🏟<', entities: [['italic', 6, 6]] },
  { input: '🏟 🏟&lt;<i>a</    >', text: '🏟 🏟<a', entities: [['italic', 6, 1]] },
  { input: '🏟 🏟&lt;<i>a</i   >', text: '🏟 🏟<a', entities: [['italic', 6, 1]] },
  { input: '🏟 🏟&lt;<b></b>', text: '🏟 🏟<', entities: [] },
  { input: '<i>\t</i>', text: '\t', entities: [['italic', 0, 1]] },
  { input: '<i>\r</i>', text: '\r', entities: [['italic', 0, 1]] },
  { input: '<i>\n</i>', text: '\n', entities: [['italic', 0, 1]] },
  {
    input: '➡️ ➡️<span class = "tg-spoiler">➡️ ➡️</span><b>➡️ ➡️</b>',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['spoiler', 5, 5],
      ['bold', 10, 5],
    ],
  },
  { input: '🏟 🏟<span class="tg-spoiler">🏟 &lt🏟</span>', text: '🏟 🏟🏟 <🏟', entities: [['spoiler', 5, 6]] },
  {
    input: '🏟 🏟<span class="tg-spoiler">🏟 &gt;<b aba   =   caba>&lt🏟</b></span>',
    text: '🏟 🏟🏟 ><🏟',
    entities: [
      ['spoiler', 5, 7],
      ['bold', 9, 3],
    ],
  },
  {
    input: '➡️ ➡️<tg-spoiler>➡️ ➡️</tg-spoiler><b>➡️ ➡️</b>',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['spoiler', 5, 5],
      ['bold', 10, 5],
    ],
  },
  { input: '🏟 🏟<tg-spoiler>🏟 &lt🏟</tg-spoiler>', text: '🏟 🏟🏟 <🏟', entities: [['spoiler', 5, 6]] },
  {
    input: '🏟 🏟<tg-spoiler>🏟 &gt;<b aba   =   caba>&lt🏟</b></tg-spoiler>',
    text: '🏟 🏟🏟 ><🏟',
    entities: [
      ['spoiler', 5, 7],
      ['bold', 9, 3],
    ],
  },
  {
    input: '<a href=telegram.org>\t</a>',
    text: '\t',
    entities: [['text_link', 0, 1, 'http://telegram.org/']],
  },
  {
    input: '<a href=telegram.org>\r</a>',
    text: '\r',
    entities: [['text_link', 0, 1, 'http://telegram.org/']],
  },
  {
    input: '<a href=telegram.org>\n</a>',
    text: '\n',
    entities: [['text_link', 0, 1, 'http://telegram.org/']],
  },
  {
    input: '<code><i><b> </b></i></code><i><b><code> </code></b></i>',
    text: '  ',
    entities: [
      ['code', 0, 1],
      ['bold', 0, 1],
      ['italic', 0, 1],
      ['code', 1, 1],
      ['bold', 1, 1],
      ['italic', 1, 1],
    ],
  },
  {
    input: '<i><b> </b> <code> </code></i>',
    text: '   ',
    entities: [
      ['italic', 0, 3],
      ['bold', 0, 1],
      ['code', 2, 1],
    ],
  },
  { input: '<a href=telegram.org> </a>', text: ' ', entities: [['text_link', 0, 1, 'http://telegram.org/']] },
  {
    input: '<a href  ="telegram.org"   > </a>',
    text: ' ',
    entities: [['text_link', 0, 1, 'http://telegram.org/']],
  },
  {
    input: "<a   href=  'telegram.org'   > </a>",
    text: ' ',
    entities: [['text_link', 0, 1, 'http://telegram.org/']],
  },
  {
    input: "<a   href=  'telegram.org?&lt;'   > </a>",
    text: ' ',
    entities: [['text_link', 0, 1, 'http://telegram.org/?<']],
  },
  { input: '<a> </a>', text: ' ', entities: [] },
  { input: '<a>telegram.org </a>', text: 'telegram.org ', entities: [] },
  {
    input: '<a>telegram.org</a>',
    text: 'telegram.org',
    entities: [['text_link', 0, 12, 'http://telegram.org/']],
  },
  {
    input: '<a>https://telegram.org/asdsa?asdasdwe#12e3we</a>',
    text: 'https://telegram.org/asdsa?asdasdwe#12e3we',
    entities: [['text_link', 0, 42, 'https://telegram.org/asdsa?asdasdwe#12e3we']],
  },
  { input: '🏟 🏟&lt;<pre  >🏟 🏟&lt;</>', text: '🏟 🏟<🏟 🏟<', entities: [['pre', 6, 6]] },
  { input: '🏟 🏟&lt;<code >🏟 🏟&lt;</>', text: '🏟 🏟<🏟 🏟<', entities: [['code', 6, 6]] },
  {
    input: '🏟 🏟&lt;<pre><code>🏟 🏟&lt;</code></>',
    text: '🏟 🏟<🏟 🏟<',
    entities: [
      ['pre', 6, 6],
      ['code', 6, 6],
    ],
  },
  {
    input: '🏟 🏟&lt;<pre><code class="language-">🏟 🏟&lt;</code></>',
    text: '🏟 🏟<🏟 🏟<',
    entities: [
      ['pre', 6, 6],
      ['code', 6, 6],
    ],
  },
  {
    input: '🏟 🏟&lt;<pre><code class="language-fift">🏟 🏟&lt;</></>',
    text: '🏟 🏟<🏟 🏟<',
    entities: [['pre', 6, 6, 'fift']],
  },
  {
    input: '🏟 🏟&lt;<code class="language-fift"><pre>🏟 🏟&lt;</></>',
    text: '🏟 🏟<🏟 🏟<',
    entities: [['pre', 6, 6, 'fift']],
  },
  {
    input: '🏟 🏟&lt;<pre><code class="language-fift">🏟 🏟&lt;</> </>',
    text: '🏟 🏟<🏟 🏟< ',
    entities: [
      ['pre', 6, 7],
      ['code', 6, 6],
    ],
  },
  {
    input: '🏟 🏟&lt;<pre> <code class="language-fift">🏟 🏟&lt;</></>',
    text: '🏟 🏟< 🏟 🏟<',
    entities: [
      ['pre', 6, 7],
      ['code', 7, 6],
    ],
  },
  {
    input: '➡️ ➡️<tg-emoji emoji-id = "12345">➡️ ➡️</tg-emoji><b>➡️ ➡️</b>',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['custom_emoji', 5, 5, '12345'],
      ['bold', 10, 5],
    ],
  },
  {
    input: '🏟 🏟<tg-emoji emoji-id="54321">🏟 &lt🏟</tg-emoji>',
    text: '🏟 🏟🏟 <🏟',
    entities: [['custom_emoji', 5, 6, '54321']],
  },
  {
    input: '🏟 🏟<b aba   =   caba><tg-emoji emoji-id="1">🏟</tg-emoji>1</b>',
    text: '🏟 🏟🏟1',
    entities: [
      ['bold', 5, 3],
      ['custom_emoji', 5, 2, '1'],
    ],
  },
  {
    input: '➡️ ➡️<tg-time unix = "12345", format = "r">➡️ ➡️</tg-time><b>➡️ ➡️</b>',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['date_time', 5, 5, 12345, 'r'],
      ['bold', 10, 5],
    ],
  },
  {
    input: '➡️ ➡️<tg-time unix = "12345", format = "t">➡️ ➡️</tg-time><b>➡️ ➡️</b>',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['date_time', 5, 5, 12345, 't'],
      ['bold', 10, 5],
    ],
  },
  {
    input: '➡️ ➡️<tg-time unix = "12345", format = "T">➡️ ➡️</tg-time><b>➡️ ➡️</b>',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['date_time', 5, 5, 12345, 'T'],
      ['bold', 10, 5],
    ],
  },
  {
    input: '➡️ ➡️<tg-time unix = "12345", format = "d">➡️ ➡️</tg-time><b>➡️ ➡️</b>',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['date_time', 5, 5, 12345, 'd'],
      ['bold', 10, 5],
    ],
  },
  {
    input: '➡️ ➡️<tg-time unix = "12345", format = "D">➡️ ➡️</tg-time><b>➡️ ➡️</b>',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['date_time', 5, 5, 12345, 'D'],
      ['bold', 10, 5],
    ],
  },
  {
    input: '➡️ ➡️<tg-time unix = "12345", format = "w">➡️ ➡️</tg-time><b>➡️ ➡️</b>',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['date_time', 5, 5, 12345, 'w'],
      ['bold', 10, 5],
    ],
  },
  {
    input: '➡️ ➡️<tg-time unix = "12345", format = "W">➡️ ➡️</tg-time><b>➡️ ➡️</b>',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['date_time', 5, 5, 12345, 'w'],
      ['bold', 10, 5],
    ],
  },
  {
    input: '➡️ ➡️<tg-time unix = "12345", format = "tttTTdDwW">➡️ ➡️</tg-time><b>➡️ ➡️</b>',
    text: '➡️ ➡️➡️ ➡️➡️ ➡️',
    entities: [
      ['date_time', 5, 5, 12345, 'wdt'],
      ['bold', 10, 5],
    ],
  },
  {
    input: '<blockquote   cite="" askdlbas nasjdbaj nj12b3>a&lt;<pre  >b;</></>',
    text: 'a<b;',
    entities: [
      ['blockquote', 0, 4],
      ['pre', 2, 2],
    ],
  },
  {
    input: '<blockquote   expandable>a&lt;<pre  >b;</></>',
    text: 'a<b;',
    entities: [
      ['expandable_blockquote', 0, 4],
      ['pre', 2, 2],
    ],
  },
  {
    input: '<blockquote   expandable   asd>a&lt;<pre  >b;</></>',
    text: 'a<b;',
    entities: [
      ['expandable_blockquote', 0, 4],
      ['pre', 2, 2],
    ],
  },
  {
    input: '<blockquote   expandable=false>a&lt;<pre  >b;</></>',
    text: 'a<b;',
    entities: [
      ['expandable_blockquote', 0, 4],
      ['pre', 2, 2],
    ],
  },
];
