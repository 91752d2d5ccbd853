import { parseTelegramHtml } from './html.js';
import { parseTelegramMarkdown } from './markdown.js';
import { parseTelegramMarkdownV2 } from './markdown-v2.js';
import type { MarkupOptions, MarkupResult } from './markup.js';
import type { ParseMode } from './parse-mode.js';

/** Reads a message text the way Telegram reads it in that parse mode: its text, entities and first error. */
export function parseMarkup(parseMode: ParseMode, input: string, options: MarkupOptions = {}): MarkupResult {
  switch (parseMode) {
    case 'HTML':
      return parseTelegramHtml(input, options);
    case 'MarkdownV2':
      return parseTelegramMarkdownV2(input, options);
    case 'Markdown':
      return parseTelegramMarkdown(input, options);
  }
}
