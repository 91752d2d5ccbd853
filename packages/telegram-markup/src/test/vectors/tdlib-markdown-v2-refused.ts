import type { ParseVector } from './parse-vector.js';

/**
 * MarkdownV2 parse mode, the messages Telegram refuses.
 *
 * The `parse_markdown` cases of TDLib's test/message_entities.cpp (github.com/tdlib/td, commit
 * 022d60202e446ad1287b9fb68e687c8a0760788b), whose parser the Bot API server runs for sendMessage,
 * transcribed as data. Entities are named as Bot API MessageEntity types with offsets and lengths in UTF-16
 * code units, a date's flags as the date_time_format the Bot API reports; a refused message keeps TDLib's
 * error text.
 */
export const TDLIB_MARKDOWN_V2_REFUSED: ParseVector[] = [
  { input: '🏟 🏟_abacaba', refused: "Can't find end of Italic entity at byte offset 9" },
  { input: '🏟 🏟_abac * asd ', refused: "Can't find end of Bold entity at byte offset 15" },
  { input: '🏟 🏟_abac * asd _', refused: "Can't find end of Italic entity at byte offset 21" },
  { input: '🏟 🏟`', refused: "Can't find end of Code entity at byte offset 9" },
  { input: '🏟 🏟```', refused: "Can't find end of Pre entity at byte offset 9" },
  { input: '🏟 🏟```a', refused: "Can't find end of Pre entity at byte offset 9" },
  { input: '🏟 🏟```a ', refused: "Can't find end of PreCode entity at byte offset 9" },
  { input: '🏟 🏟__🏟 🏟_', refused: "Can't find end of Italic entity at byte offset 20" },
  { input: '🏟 🏟_🏟 🏟__', refused: "Can't find end of Underline entity at byte offset 19" },
  { input: '🏟 🏟```🏟 🏟`', refused: "Can't find end of Code entity at byte offset 21" },
  { input: '🏟 🏟```🏟 🏟_', refused: "Can't find end of PreCode entity at byte offset 9" },
  { input: '🏟 🏟```🏟 🏟\\`', refused: "Can't find end of PreCode entity at byte offset 9" },
  { input: '[telegram\\.org](asd\\)', refused: "Can't find end of a URL at byte offset 16" },
  { input: '[telegram\\.org](', refused: "Can't find end of a URL at byte offset 16" },
  { input: '[telegram\\.org](asd', refused: "Can't find end of a URL at byte offset 16" },
  { input: '🏟 🏟__🏟 _🏟___', refused: "Can't find end of Italic entity at byte offset 23" },
  { input: '🏟 🏟__', refused: "Can't find end of Underline entity at byte offset 9" },
  { input: '🏟 🏟||test\\|', refused: "Can't find end of Spoiler entity at byte offset 9" },
  { input: '🏟 🏟!', refused: "Character '!' is reserved and must be escaped with the preceding '\\'" },
  { input: '🏟 🏟>', refused: "Character '>' is reserved and must be escaped with the preceding '\\'" },
  { input: '🏟 🏟![', refused: "Can't find end of CustomEmoji entity at byte offset 9" },
  { input: '🏟 🏟![👍', refused: "Can't find end of CustomEmoji entity at byte offset 9" },
  { input: '🏟 🏟![👍]', refused: 'The entity must contain a tg://emoji or tg://time URL' },
  { input: '🏟 🏟![👍](tg://emoji?id=1234', refused: "Can't find end of a URL at byte offset 17" },
  { input: '🏟 🏟![👍](t://emoji?id=1234)', refused: 'Invalid tg://emoji or tg://time URL specified' },
  { input: '🏟 🏟![👍](tg:emojis?id=1234)', refused: 'Invalid tg://emoji or tg://time URL specified' },
  { input: '🏟 🏟![👍](tg://emoji#test)', refused: 'Invalid tg://emoji or tg://time URL specified' },
  { input: '🏟 🏟![👍](tg://emoji?test=1#&id=25)', refused: 'Invalid tg://emoji or tg://time URL specified' },
  {
    input: '🏟 🏟![👍](tg://emoji?test=1231&id=025)',
    refused: 'Invalid tg://emoji or tg://time URL specified',
  },
  { input: '🏟 🏟![👍](tg://time?id=1234', refused: "Can't find end of a URL at byte offset 17" },
  { input: '🏟 🏟![👍](t://time?id=1234)', refused: 'Invalid tg://emoji or tg://time URL specified' },
  { input: '🏟 🏟![👍](tg:times?id=1234)', refused: 'Invalid tg://emoji or tg://time URL specified' },
  { input: '🏟 🏟![👍](tg://time#test)', refused: 'Invalid tg://emoji or tg://time URL specified' },
  { input: '🏟 🏟![👍](tg://time?test=1#&date=25)', refused: 'Invalid tg://emoji or tg://time URL specified' },
  {
    input: '🏟 🏟![👍](tg://time?test=1231&date=025)',
    refused: 'Invalid tg://emoji or tg://time URL specified',
  },
  { input: '>*b\n>ld \n>bo\nld*\nasd\ndef', refused: "Can't find end of Bold entity at byte offset 1" },
  { input: '>\n*a*>2', refused: "Character '>' is reserved and must be escaped with the preceding '\\'" },
  { input: '>asd\n>q||e||w||\n||asdad', refused: "Can't find end of Spoiler entity at byte offset 16" },
  { input: '>asd\n>q||ew\n||asdad', refused: "Can't find end of Spoiler entity at byte offset 7" },
  { input: '>asd\n>q||e||w__\n||asdad', refused: "Can't find end of Underline entity at byte offset 13" },
  { input: '>asd\n>q||e||w||a\n||asdad', refused: "Can't find end of Spoiler entity at byte offset 13" },
];
