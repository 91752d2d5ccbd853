import { EntityTree, type EntityType, type TelegramEntity } from './entities.js';
import {
  describeChar,
  markupResult,
  readPreOpening,
  passSlot,
  readLinkUrl,
  MISSING_URL_END,
  type MarkupIssue,
  type MarkupOptions,
  type MarkupResult,
  type SlotContext,
} from './markup.js';

/**
 * Telegram's MarkdownV2 parse mode (https://core.telegram.org/bots/api#markdownv2-style), walked the way
 * Telegram's own parser walks it: any character from 1 to 126 may be escaped with '\'; outside code the
 * characters _ * [ ] ( ) ~ ` > # + - = | { } . ! are markup and must be escaped to be text; inside code and
 * pre only ` and \ are special; inside a link's (…) only ) and \ are. Entities nest; '__' is always read
 * greedily as underline.
 */
export const MARKDOWN_V2_RESERVED = '_*[]()~`>#+-=|{}.!';

const NAMES: Record<EntityType, string> = {
  bold: 'bold (*)',
  italic: 'italic (_)',
  underline: 'underline (__)',
  strikethrough: 'strikethrough (~)',
  spoiler: 'spoiler (||)',
  code: 'code (`)',
  pre: 'pre (```)',
  link: 'link ([…](…))',
  custom_emoji: 'custom emoji (![…](…))',
  blockquote: 'block quote (>)',
};

/** How many characters the marker that closes an entity takes. */
const CLOSING_LENGTH: Partial<Record<EntityType, number>> = { underline: 2, spoiler: 2, pre: 3 };

function closes(entity: EntityType, input: string, i: number): boolean {
  const c = input[i];
  switch (entity) {
    case 'bold':
      return c === '*';
    case 'italic':
      return c === '_' && input[i + 1] !== '_';
    case 'underline':
      return input.startsWith('__', i);
    case 'strikethrough':
      return c === '~';
    case 'spoiler':
      return input.startsWith('||', i);
    case 'code':
      return c === '`';
    case 'pre':
      return input.startsWith('```', i);
    case 'link':
    case 'custom_emoji':
      return c === ']';
    case 'blockquote':
      return false;
  }
}

/** The entity a markup character opens at `i` and where its text starts, or null for a bare character. */
function opening(input: string, i: number): { entity: TelegramEntity; end: number } | null {
  switch (input[i]) {
    case '_':
      return input[i + 1] === '_'
        ? { entity: { type: 'underline', children: [] }, end: i + 2 }
        : { entity: { type: 'italic', children: [] }, end: i + 1 };
    case '*':
      return { entity: { type: 'bold', children: [] }, end: i + 1 };
    case '~':
      return { entity: { type: 'strikethrough', children: [] }, end: i + 1 };
    case '|':
      return input[i + 1] === '|' ? { entity: { type: 'spoiler', children: [] }, end: i + 2 } : null;
    case '[':
      return { entity: { type: 'link', url: '', children: [] }, end: i + 1 };
    case '!':
      return input[i + 1] === '[' ? { entity: { type: 'custom_emoji', children: [] }, end: i + 2 } : null;
    case '`': {
      if (!input.startsWith('```', i)) return { entity: { type: 'code', children: [] }, end: i + 1 };
      const pre = readPreOpening(input, i + 3);
      return { entity: { type: 'pre', language: pre.language, children: [] }, end: pre.end };
    }
    default:
      return null;
  }
}

const isEscapable = (c: string | undefined) =>
  c !== undefined && c.charCodeAt(0) >= 1 && c.charCodeAt(0) <= 126;

export function parseTelegramMarkdownV2(input: string, options: MarkupOptions = {}): MarkupResult {
  const tree = new EntityTree();
  const warnings: MarkupIssue[] = [];
  const offsets = new Map<TelegramEntity, number>();
  const fail = (message: string, offset: number) => markupResult(tree, { message, offset }, warnings);
  const inCode = () => tree.top?.type === 'code' || tree.top?.type === 'pre';

  let i = 0;
  while (i < input.length) {
    const innermost = tree.top?.type;
    const context: SlotContext = innermost === 'pre' || innermost === 'code' ? innermost : 'text';
    const afterSlot = passSlot(input, i, context, options);
    if (afterSlot !== null) {
      i = afterSlot;
      continue;
    }
    const c = input[i]!;

    // A block quote runs over consecutive lines that start with '>' (or '**>' for an expandable one).
    if ((i === 0 || input[i - 1] === '\n') && !inCode()) {
      const marker = c === '>' ? 1 : input.startsWith('**>', i) ? 3 : 0;
      if (marker > 0) {
        if (!tree.isOpen('blockquote')) {
          tree.open({ type: 'blockquote', expandable: marker === 3, children: [] });
        }
        i += marker;
        continue;
      }
      if (tree.top?.type === 'blockquote' && i > 0) tree.close();
    }

    if (c === '\\' && isEscapable(input[i + 1])) {
      tree.text(input[i + 1]!);
      i += 2;
      continue;
    }
    if (!(inCode() ? '`' : MARKDOWN_V2_RESERVED).includes(c)) {
      tree.text(c);
      i += 1;
      continue;
    }

    const top = tree.top;
    // '||' at the end of a block quote's last line marks it expandable.
    if (
      top?.type === 'blockquote' &&
      input.startsWith('||', i) &&
      (input[i + 2] === '\n' || i + 2 === input.length)
    ) {
      i += 2;
      continue;
    }
    if (top && closes(top.type, input, i)) {
      tree.close();
      i += CLOSING_LENGTH[top.type] ?? 1;
      if (top.type === 'link' || top.type === 'custom_emoji') {
        if (input[i] !== '(') {
          if (top.type === 'custom_emoji') return fail('A custom emoji needs its (tg://emoji?id=…) part', i);
          continue;
        }
        const link = readLinkUrl(input, i, options, (j) => input[j] === '\\' && isEscapable(input[j + 1]));
        if (!link) return fail(MISSING_URL_END, i);
        if (top.type === 'link') top.url = link.url;
        i = link.end;
      }
      continue;
    }

    const next = opening(input, i);
    if (!next) {
      return fail(
        `Character ${describeChar(c)} is reserved in MarkdownV2 and must be escaped as '\\${c}'`,
        i,
      );
    }
    if ((next.entity.type === 'link' || next.entity.type === 'custom_emoji') && tree.isOpen('link')) {
      return fail('A link cannot contain another link', i);
    }
    offsets.set(next.entity, i);
    tree.open(next.entity);
    i = next.end;
  }

  // A block quote ends with its last line; anything else left open was never closed.
  const unclosed = tree.innermostExcept('blockquote');
  if (unclosed) {
    return fail(
      `Can't find the end of the ${NAMES[unclosed.type]} entity that starts here`,
      offsets.get(unclosed)!,
    );
  }
  return markupResult(tree, null, warnings);
}
