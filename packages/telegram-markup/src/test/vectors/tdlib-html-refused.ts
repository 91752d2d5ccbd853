import type { ParseVector } from './parse-vector.js';

/**
 * HTML parse mode, the messages Telegram refuses.
 *
 * The `parse_html` cases of TDLib's test/message_entities.cpp (github.com/tdlib/td, commit
 * 022d60202e446ad1287b9fb68e687c8a0760788b), whose parser the Bot API server runs for sendMessage,
 * transcribed as data. Entities are named as Bot API MessageEntity types with offsets and lengths in UTF-16
 * code units, a date's flags as the date_time_format the Bot API reports; a refused message keeps TDLib's
 * error text.
 */
export const TDLIB_HTML_REFUSED: ParseVector[] = [
  {
    input: '&#57311;',
    refused:
      'Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units',
  },
  {
    input: '&#xDFDF;',
    refused:
      'Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units',
  },
  {
    input: '&#xDFDF',
    refused:
      'Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units',
  },
  { input: '🏟 🏟&lt;<abacaba', refused: 'Unclosed start tag at byte offset 13' },
  { input: '🏟 🏟&lt;<abac aba>', refused: 'Unsupported start tag "abac" at byte offset 13' },
  { input: '🏟 🏟&lt;<abac>', refused: 'Unsupported start tag "abac" at byte offset 13' },
  { input: '🏟 🏟&lt;<i   =aba>', refused: 'Empty attribute name in the tag "i" at byte offset 13' },
  { input: '🏟 🏟&lt;<i    aba>', refused: 'Can\'t find end tag corresponding to start tag "i"' },
  { input: '🏟 🏟&lt;<i    aba  =  ', refused: 'Unclosed start tag "i" at byte offset 13' },
  { input: '🏟 🏟&lt;<i    aba  =  190azAz-.,', refused: 'Unexpected end of name token at byte offset 27' },
  { input: '🏟 🏟&lt;<i    aba  =  "&lt;&gt;&quot;>', refused: 'Unclosed start tag at byte offset 13' },
  { input: "🏟 🏟&lt;<i    aba  =  '&lt;&gt;&quot;>", refused: 'Unclosed start tag at byte offset 13' },
  { input: '🏟 🏟&lt;</', refused: 'Unexpected end tag at byte offset 13' },
  { input: '🏟 🏟&lt;<b></b></', refused: 'Unexpected end tag at byte offset 20' },
  { input: '🏟 🏟&lt;<i>a</i   ', refused: 'Unclosed end tag at byte offset 17' },
  {
    input: '🏟 🏟&lt;<i>a</em   >',
    refused: 'Unmatched end tag at byte offset 17, expected "</i>", found "</em>"',
  },
  {
    input: '➡️ ➡️<tg-time unix = "12345", format = "rt">➡️ ➡️</tg-time><b>➡️ ➡️</b>',
    refused: 'Invalid date format used',
  },
  {
    input: '➡️ ➡️<tg-time unix = "12345", format = "ts">➡️ ➡️</tg-time><b>➡️ ➡️</b>',
    refused: 'Invalid date format used',
  },
];
