import type { ParseMode } from '@lumi/contract';
import { parseTelegramHtml } from './parse-telegram-html';
import { parseTelegramMarkdown } from './parse-telegram-markdown';
import { parseTelegramMarkdownV2 } from './parse-telegram-markdown-v2';
import type { ParsedMessage } from './telegram-nodes';

/** The formatting entities of a message text, read the way Telegram reads it in that parse mode. */
export function parseTelegramText(text: string, parseMode: ParseMode): ParsedMessage {
  switch (parseMode) {
    case 'HTML':
      return parseTelegramHtml(text);
    case 'MarkdownV2':
      return parseTelegramMarkdownV2(text);
    case 'Markdown':
      return parseTelegramMarkdown(text);
  }
}
