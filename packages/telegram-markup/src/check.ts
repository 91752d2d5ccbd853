import type { TelegramNode } from './entities.js';
import { lineColumn } from './markup.js';
import { parseMarkup } from './parse.js';
import { TELEGRAM_TEXT_MAX_LENGTH, type ParseMode } from './parse-mode.js';

export interface TextProblem {
  severity: 'error' | 'warning';
  message: string;
  /** 1-based, or null when the problem is the message as a whole. */
  line: number | null;
  column: number | null;
}

export interface TelegramTextCheck {
  /** The characters Telegram counts: the text after entity parsing, trimmed, in UTF-16 code units. */
  length: number;
  /** What a reader sees, without the markup. */
  plainText: string;
  /** The entities, when the markup parses. */
  entities: TelegramNode[];
  problems: TextProblem[];
}

/**
 * Checks a message the way sendMessage would before anything is sent: the markup parses, and the text
 * left after entity parsing is 1 to 4096 characters. Telegram trims surrounding white space and counts in
 * UTF-16 code units (its entity offsets are UTF-16 too), so an emoji outside the BMP counts twice.
 */
export function checkTelegramText(text: string, parseMode: ParseMode): TelegramTextCheck {
  const parsed = parseMarkup(parseMode, text);
  const at = (offset: number) => lineColumn(text, offset);
  const problems: TextProblem[] = [];
  if (parsed.error) {
    problems.push({
      severity: 'error',
      message: `Telegram would refuse this message (can't parse entities): ${parsed.error.message}`,
      ...at(parsed.error.offset),
    });
  }
  for (const warning of parsed.warnings) {
    problems.push({ severity: 'warning', message: warning.message, ...at(warning.offset) });
  }

  const plainText = parsed.text.trim();
  const length = parsed.error ? text.trim().length : plainText.length;
  const whole = { severity: 'error', line: null, column: null } as const;
  if (!parsed.error && length === 0) {
    problems.push({
      ...whole,
      message: 'The message is empty once formatting is removed, and Telegram refuses empty messages',
    });
  }
  if (!parsed.error && length > TELEGRAM_TEXT_MAX_LENGTH) {
    problems.push({
      ...whole,
      message: `The message is ${length} characters once formatting is removed; Telegram allows at most ${TELEGRAM_TEXT_MAX_LENGTH}`,
    });
  }
  return { length, plainText, entities: parsed.error ? [] : parsed.entities, problems };
}
