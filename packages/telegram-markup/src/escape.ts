import type { SlotContext } from './markup.js';
import type { ParseMode } from './parse-mode.js';

/**
 * Escaping of substituted values (never of the template's own markup), per parse mode and per place in
 * the markup, as https://core.telegram.org/bots/api#formatting-options prescribes.
 */

/** HTML: '<', '>' and '&' everywhere; inside an attribute value also '"'. */
export function escapeHtml(value: string, context: SlotContext = 'text'): string {
  const escaped = value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return context === 'attribute' ? escaped.replaceAll('"', '&quot;') : escaped;
}

/**
 * MarkdownV2: every reserved character and the backslash itself; inside code and pre only '`' and '\';
 * inside a link's (…) only ')' and '\'.
 */
export function escapeMarkdownV2(value: string, context: SlotContext = 'text'): string {
  if (context === 'code' || context === 'pre') return value.replace(/[`\\]/g, '\\$&');
  if (context === 'url') return value.replace(/[)\\]/g, '\\$&');
  return value.replace(/[_*[\]()~`>#+\-=|{}.!\\]/g, '\\$&');
}

/**
 * Legacy Markdown: outside entities '_', '*', '`' and '[' take a '\'. Inside an entity nothing can be
 * escaped, so the character that would close it is written by closing the entity, escaping it and
 * reopening (Telegram's own advice: `*2*\**2=4*` for bold "2*2=4"). A ')' in a URL is percent-encoded.
 * A ']' in link text and ``` in a pre block cannot be written at all; the validator reports what breaks.
 */
export function escapeMarkdown(value: string, context: SlotContext = 'text'): string {
  switch (context) {
    case 'bold':
      return value.replaceAll('*', '*\\**');
    case 'italic':
      return value.replaceAll('_', '_\\__');
    case 'code':
      return value.replaceAll('`', '`\\``');
    case 'url':
      return value.replaceAll(')', '%29');
    case 'pre':
    case 'link_text':
      return value;
    default:
      return value.replace(/[_*`[]/g, '\\$&');
  }
}

export function escapeFor(parseMode: ParseMode, value: string, context: SlotContext = 'text'): string {
  switch (parseMode) {
    case 'HTML':
      return escapeHtml(value, context);
    case 'MarkdownV2':
      return escapeMarkdownV2(value, context);
    case 'Markdown':
      return escapeMarkdown(value, context);
  }
}
