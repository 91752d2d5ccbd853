import { readSlot, type MarkupOptions, type MarkupResult, type SlotContext } from './telegram-markup.js';

/**
 * Telegram's legacy Markdown parse mode (https://core.telegram.org/bots/api#markdown-style): *bold*,
 * _italic_, `code`, ```pre```, [text](url). Entities do not nest, and nothing can be escaped inside one:
 * an entity runs to the first character that closes it. Outside entities '\' escapes _ * ` [.
 */
export const MARKDOWN_SPECIAL = '_*`[';

const CLOSING: Record<string, { close: string; context: SlotContext; name: string }> = {
  '*': { close: '*', context: 'bold', name: 'bold (*)' },
  _: { close: '_', context: 'italic', name: 'italic (_)' },
  '`': { close: '`', context: 'code', name: 'code (`)' },
  '[': { close: ']', context: 'link_text', name: 'link ([…])' },
};

export function parseTelegramMarkdown(input: string, options: MarkupOptions = {}): MarkupResult {
  let text = '';
  const fail = (message: string, offset: number): MarkupResult => ({
    text,
    error: { message, offset },
    warnings: [],
  });

  let i = 0;
  while (i < input.length) {
    const slot = readSlot(input, i);
    if (slot) {
      options.onSlot?.(slot.index, 'text');
      i = slot.end;
      continue;
    }
    const c = input[i]!;
    if (c === '\\' && MARKDOWN_SPECIAL.includes(input[i + 1] ?? '')) {
      text += input[i + 1];
      i += 2;
      continue;
    }
    if (!MARKDOWN_SPECIAL.includes(c)) {
      text += c;
      i += 1;
      continue;
    }

    const start = i;
    const pre = input.startsWith('```', i);
    const entity = pre ? { close: '```', context: 'pre' as const, name: 'pre (```)' } : CLOSING[c]!;
    i += pre ? 3 : 1;
    if (pre) {
      // An optional language, then one line break, are not part of the text.
      let languageEnd = i;
      while (languageEnd < input.length && !/[\s`]/.test(input[languageEnd]!)) languageEnd += 1;
      if (languageEnd < input.length && input[languageEnd] !== '`') i = languageEnd;
      if (input[i] === '\r' && input[i + 1] === '\n') i += 2;
      else if (input[i] === '\n' || input[i] === '\r') i += 1;
    }
    while (i < input.length && !input.startsWith(entity.close, i)) {
      const inner = readSlot(input, i);
      if (inner) {
        options.onSlot?.(inner.index, entity.context);
        i = inner.end;
        continue;
      }
      text += input[i];
      i += 1;
    }
    if (i >= input.length) {
      return fail(
        `Can't find the end of the ${entity.name} entity that starts here (legacy Markdown cannot escape inside an entity)`,
        start,
      );
    }
    i += entity.close.length;
    if (c === '[' && !pre && input[i] === '(') {
      i += 1;
      while (i < input.length && input[i] !== ')') {
        const inner = readSlot(input, i);
        if (inner) {
          options.onSlot?.(inner.index, 'url');
          i = inner.end;
        } else {
          i += 1;
        }
      }
      if (i >= input.length) return fail("Can't find the end of the link's URL: a ')' is missing", start);
      i += 1;
    }
  }
  return { text, error: null, warnings: [] };
}
