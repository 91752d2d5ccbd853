import { EntityTree, type TelegramEntity } from './entities.js';
import {
  markupResult,
  readPreOpening,
  passSlot,
  readLinkUrl,
  MISSING_URL_END,
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
    const afterSlot = passSlot(input, i, 'text', options);
    if (afterSlot !== null) {
      i = afterSlot;
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
      const afterSlot = passSlot(input, i, context, options);
      if (afterSlot !== null) {
        i = afterSlot;
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
      const link = readLinkUrl(input, i, options);
      if (!link) return fail(MISSING_URL_END, start);
      entity.url = link.url;
      i = link.end;
    }
  }
  return markupResult(tree, null);
}
