/** The three ways sendMessage reads formatting (https://core.telegram.org/bots/api#formatting-options). */
export const PARSE_MODES = ['HTML', 'Markdown', 'MarkdownV2'] as const;
export type ParseMode = (typeof PARSE_MODES)[number];

/** sendMessage: 1-4096 characters of text after entity parsing. */
export const TELEGRAM_TEXT_MAX_LENGTH = 4096;
