import { parseMarkup, splitFormattedText, type FormattedText, type ParseMode } from '@lumi/telegram-markup';

/**
 * A rendered text longer than Telegram's 4,096 characters, as the consecutive messages it goes out as
 * (docs/bot-developers/deliveries.md, "Long messages"): Telegram's own parsing of the markup gives the plain
 * text and its entities, which are cut at paragraph, line or word boundaries, never inside an entity that
 * cannot be split; each part is sent with its entities and no parse mode (Bot API, sendMessage `entities`).
 */
export function messageParts(parseMode: ParseMode, rendered: string): FormattedText[] {
  const parsed = parseMarkup(parseMode, rendered);
  return splitFormattedText({ text: parsed.text, entities: parsed.messageEntities });
}
