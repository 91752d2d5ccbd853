import { EntityTree, type TelegramEntity } from './entities.js';
import { linkNode } from './links.js';
import {
  markupResult,
  readPreOpening,
  afterTextSlots,
  keepTextSlot,
  readLinkUrl,
  type MarkupIssue,
  type MarkupOptions,
  type MarkupResult,
  type SlotContext,
} from './markup.js';

/**
 * Telegram's legacy Markdown parse mode (https://core.telegram.org/bots/api#markdown-style): *bold*,
 * _italic_, `code`, ```pre```, [text](url). Entities do not nest, and nothing can be escaped inside one:
 * an entity runs to the first character that closes it. Outside entities '\' escapes _ * ` [. As
 * Telegram reads it, a link's URL runs to the first ')' or the end of the text, a [text] without a URL is
 * a link to its text when that is a URL, and an empty entity is dropped, its markup with it.
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
  const tree = new EntityTree<null>();
  const warnings: MarkupIssue[] = [];
  const fail = (message: string, offset: number) => markupResult(tree, { message, offset }, warnings);

  const skipSlots = (from: number) => afterTextSlots(tree, input, from, 'text', options);
  for (let i = skipSlots(0); i < input.length; i = skipSlots(i)) {
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

    tree.open(entity, null);
    while (i < input.length && !input.startsWith(close, i)) {
      const afterSlot = keepTextSlot(tree, input, i, context, options);
      if (afterSlot !== null) {
        i = afterSlot;
        continue;
      }
      tree.text(input[i]!);
      i += 1;
    }
    if (i >= input.length) {
      tree.close();
      return fail(
        `Can't find the end of the ${NAMES[entity.type]} entity that starts here (legacy Markdown cannot escape inside an entity)`,
        start,
      );
    }
    const empty = tree.topIsEmpty;
    i += close.length;
    if (empty || entity.type !== 'link') {
      tree.close(empty ? null : undefined);
      continue;
    }

    let url = tree.plainText.slice(tree.top!.start);
    if (input[i] === '(') {
      const link = readLinkUrl(input, i, options);
      if (!link.closed) {
        warnings.push({
          message: "The link's URL has no ')': Telegram takes the rest of the text as the URL",
          offset: i,
        });
      }
      url = link.url;
      i = link.end;
    }
    const node = linkNode(url);
    if (!node) {
      warnings.push({
        message: `[…](${url}) makes no link: Telegram does not read '${url}' as a URL and shows only the text`,
        offset: start,
      });
    }
    tree.close(node);
  }
  return markupResult(tree, null, warnings);
}
