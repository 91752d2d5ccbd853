import { EntityTree, type TelegramEntity } from './entities.js';
import {
  markupResult,
  readPreOpening,
  readSlot,
  type MarkupOptions,
  type MarkupResult,
  type SlotContext,
} from './markup.js';

/**
 * Telegram's legacy Markdown parse mode (https://core.telegram.org/bots/api#markdown-style): *bold*,
 * _italic_, `code`, ```pre```, [text](url). Entities do not nest, and nothing can be escaped inside one:
 * an entity runs to the first character that closes it. Outside entities '\' escapes _ * ` [.
 */
export const MARKDOWN_SPECIAL = '_*`[';

const SIMPLE: Record<string, { close: string; context: SlotContext; type: 'bold' | 'italic' | 'code' }> = {
  '*': { close: '*', context: 'bold', type: 'bold' },
  _: { close: '_', context: 'italic', type: 'italic' },
  '`': { close: '`', context: 'code', type: 'code' },
};
const NAMES: Record<string, string> = {
  bold: 'bold (*)',
  italic: 'italic (_)',
  code: 'code (`)',
  pre: 'pre (```)',
  link: 'link ([…])',
};

export function parseTelegramMarkdown(input: string, options: MarkupOptions = {}): MarkupResult {
  const tree = new EntityTree();
  const fail = (message: string, offset: number) => markupResult(tree, { message, offset });

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
      tree.text(input[i + 1]!);
      i += 2;
      continue;
    }
    if (!MARKDOWN_SPECIAL.includes(c)) {
      tree.text(c);
      i += 1;
      continue;
    }

    const start = i;
    let entity: TelegramEntity;
    let close: string;
    let context: SlotContext;
    if (input.startsWith('```', i)) {
      const pre = readPreOpening(input, i + 3);
      entity = { type: 'pre', language: pre.language, children: [] };
      close = '```';
      context = 'pre';
      i = pre.end;
    } else if (c === '[') {
      entity = { type: 'link', url: '', children: [] };
      close = ']';
      context = 'link_text';
      i += 1;
    } else {
      const simple = SIMPLE[c]!;
      entity = { type: simple.type, children: [] };
      close = simple.close;
      context = simple.context;
      i += 1;
    }

    tree.open(entity);
    while (i < input.length && !input.startsWith(close, i)) {
      const inner = readSlot(input, i);
      if (inner) {
        options.onSlot?.(inner.index, context);
        i = inner.end;
        continue;
      }
      tree.text(input[i]!);
      i += 1;
    }
    tree.close();
    if (i >= input.length) {
      return fail(
        `Can't find the end of the ${NAMES[entity.type]} entity that starts here (legacy Markdown cannot escape inside an entity)`,
        start,
      );
    }
    i += close.length;

    if (entity.type === 'link' && input[i] === '(') {
      let url = '';
      i += 1;
      while (i < input.length && input[i] !== ')') {
        const inner = readSlot(input, i);
        if (inner) {
          options.onSlot?.(inner.index, 'url');
          i = inner.end;
        } else {
          url += input[i];
          i += 1;
        }
      }
      if (i >= input.length) return fail("Can't find the end of the link's URL: a ')' is missing", start);
      entity.url = url;
      i += 1;
    }
  }
  return markupResult(tree, null);
}
