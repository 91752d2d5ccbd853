import { MESSAGING_LIMITS, type ParseMode, type RenderProblem } from '@lumi/contract';
import { parseTelegramHtml } from './telegram-html.js';
import { parseTelegramMarkdown } from './telegram-markdown.js';
import { parseTelegramMarkdownV2 } from './telegram-markdown-v2.js';
import { lineColumn, type MarkupOptions, type MarkupResult } from './telegram-markup.js';

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

export interface TelegramTextCheck {
  /** The characters Telegram counts: the text after entity parsing, trimmed, in UTF-16 code units. */
  length: number;
  /** What a reader sees, without the markup. */
  plainText: string;
  problems: RenderProblem[];
}

/**
 * Checks a message the way sendMessage would before anything is sent: the markup parses, and the text
 * left after entity parsing is 1 to 4096 characters. Telegram trims surrounding white space and counts in
 * UTF-16 code units (its entity offsets are UTF-16 too), so an emoji outside the BMP counts twice.
 */
export function checkTelegramText(text: string, parseMode: ParseMode): TelegramTextCheck {
  const parsed = parseMarkup(parseMode, text);
  const at = (offset: number) => lineColumn(text, offset);
  const problems: RenderProblem[] = [];
  if (parsed.error) {
    problems.push({
      severity: 'error',
      source: 'message',
      message: `Telegram would refuse this message (can't parse entities): ${parsed.error.message}`,
      ...at(parsed.error.offset),
    });
  }
  for (const warning of parsed.warnings) {
    problems.push({
      severity: 'warning',
      source: 'message',
      message: warning.message,
      ...at(warning.offset),
    });
  }

  const plainText = parsed.text.trim();
  const length = parsed.error ? text.trim().length : plainText.length;
  if (!parsed.error && length === 0) {
    problems.push({
      severity: 'error',
      source: 'message',
      message: 'The message is empty once formatting is removed, and Telegram refuses empty messages',
      line: null,
      column: null,
    });
  }
  if (!parsed.error && length > MESSAGING_LIMITS.telegramTextMax) {
    problems.push({
      severity: 'error',
      source: 'message',
      message: `The message is ${length} characters once formatting is removed; Telegram allows at most ${MESSAGING_LIMITS.telegramTextMax}`,
      line: null,
      column: null,
    });
  }
  return { length, plainText, problems };
}

/** 'Line 2, column 5: …' for people; the position says which text it is in. */
export function describeProblem(problem: RenderProblem): string {
  if (problem.line === null) return problem.message;
  const where = problem.source === 'template' ? 'Template' : 'Rendered message';
  return `${where} line ${problem.line}, column ${problem.column}: ${problem.message}`;
}
