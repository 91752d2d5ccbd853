/**
 * Telegram's message formatting (https://core.telegram.org/bots/api#formatting-options), written once for
 * the server, which checks and escapes what it sends, and the console, which previews it: parse a text
 * in a parse mode into its entities, check it as sendMessage would, escape values for where they land,
 * split a text too long for one message into parts that each fit.
 */
export { PARSE_MODES, TELEGRAM_TEXT_MAX_LENGTH, type ParseMode } from './parse-mode.js';
export type { EntityType, TelegramEntity, TelegramNode } from './entities.js';
export { toMessageEntities, type MessageEntityType, type TelegramMessageEntity } from './message-entities.js';
export {
  lineColumn,
  SLOT_PATTERN,
  slotMarker,
  type MarkupIssue,
  type MarkupOptions,
  type MarkupResult,
  type SlotContext,
} from './markup.js';
export { parseMarkup } from './parse.js';
export { checkTelegramText, type TelegramTextCheck, type TextProblem } from './check.js';
export { escapeFor, escapeHtml, escapeMarkdown, escapeMarkdownV2 } from './escape.js';
export { splitFormattedText, type FormattedText, type SplitOptions } from './split.js';
