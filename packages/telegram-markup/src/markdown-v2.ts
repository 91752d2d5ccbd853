import { EntityTree, type EntityType, type TelegramEntity } from './entities.js';
import { emojiLinkId, linkNode, timeLink } from './links.js';
import {
  describeChar,
  hasSlot,
  markupResult,
  readPreOpening,
  keepTextSlot,
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
 * greedily as underline. A block quote starts with '>' at the start of a line ('\r' does not count as
 * text there) and ends with the first line that does not; every entity inside it must end before that,
 * except a '||' right before the line break, which marks the quote expandable.
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
  text_mention: 'link ([…](…))',
  custom_emoji: 'custom emoji (![…](…))',
  date_time: 'custom emoji (![…](…))',
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
    default:
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
      return input[i + 1] === '['
        ? { entity: { type: 'custom_emoji', customEmojiId: '', children: [] }, end: i + 2 }
        : null;
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
  /** Each open entity knows where its markup starts in the input. */
  const tree = new EntityTree<number>();
  const warnings: MarkupIssue[] = [];
  const fail = (message: string, offset: number) => markupResult(tree, { message, offset }, warnings);
  const unclosed = () => {
    const { node, info } = tree.top!;
    return fail(`Can't find the end of the ${NAMES[node.type]} entity that starts here`, info);
  };
  const inCode = () => tree.top?.node.type === 'code' || tree.top?.node.type === 'pre';
  const escapedAt = (j: number) => input[j] === '\\' && isEscapable(input[j + 1]);
  let inQuote = false;
  // Whether a '>' here starts a quote: only white space ('\r') and markup since the line began.
  let lineStart = true;

  let i = 0;
  while (i < input.length) {
    const innermost = tree.top?.node.type;
    const context: SlotContext = innermost === 'pre' || innermost === 'code' ? innermost : 'text';
    const afterSlot = keepTextSlot(tree, input, i, context, options);
    if (afterSlot !== null) {
      i = afterSlot;
      lineStart = false;
      continue;
    }
    const c = input[i]!;
    if (c === '\\' && isEscapable(input[i + 1])) {
      const escaped = input[i + 1]!;
      tree.text(escaped);
      if (escaped !== '\r') lineStart = escaped === '\n';
      i += 2;
      continue;
    }
    if (!(inCode() ? '`' : `${MARKDOWN_V2_RESERVED}\n`).includes(c)) {
      tree.text(c);
      if (c !== '\r') lineStart = false;
      i += 1;
      continue;
    }

    const top = tree.top;
    const endsQuote = inQuote && c === '\n' && input[i + 1] !== '>';
    if (!top || !(endsQuote || closes(top.node.type, input, i))) {
      if (c === '\n') {
        tree.text(c);
        lineStart = true;
        i += 1;
        continue;
      }
      if (c === '>') {
        if (!lineStart)
          return fail(`Character '>' is reserved in MarkdownV2 and must be escaped as '\\>'`, i);
        if (!inQuote) tree.open({ type: 'blockquote', expandable: false, children: [] }, i);
        inQuote = true;
        i += 1;
        continue;
      }
      const next = opening(input, i);
      if (!next) {
        return fail(
          `Character ${describeChar(c)} is reserved in MarkdownV2 and must be escaped as '\\${c}'`,
          i,
        );
      }
      if (next.entity.type === 'link' && tree.isOpen('link')) {
        warnings.push({ message: 'A link cannot contain another link', offset: i });
      }
      tree.open(next.entity, i);
      i = next.end;
      continue;
    }

    if (c === '\n') {
      // The line after the quote's last one does not start with '>': the quote ends, and with it any
      // entity in it, which only a '||' right before the line break may be (it marks the quote expandable).
      let expandable = false;
      if (top.node.type !== 'blockquote') {
        const atLineEnd = top.info === i - 2 || (top.info === i - 3 && tree.plainText.endsWith('\r'));
        if (top.node.type !== 'spoiler' || !atLineEnd) return unclosed();
        tree.close(null);
        if (tree.top?.node.type !== 'blockquote') return unclosed();
        expandable = true;
      }
      tree.text(c);
      tree.close({ type: 'blockquote', expandable, children: [] });
      inQuote = false;
      lineStart = true;
      i += 1;
      continue;
    }

    const empty = tree.topIsEmpty;
    i += CLOSING_LENGTH[top.node.type] ?? 1;
    if (top.node.type !== 'link' && top.node.type !== 'custom_emoji') {
      tree.close(empty ? null : undefined);
      continue;
    }
    let url: string;
    if (input[i] === '(') {
      const link = readLinkUrl(input, i, options, escapedAt);
      if (!link.closed) return fail(MISSING_URL_END, i);
      url = link.url;
      i = link.end;
    } else if (top.node.type === 'link') {
      url = tree.plainText.slice(top.start);
    } else {
      return fail('A custom emoji needs its (tg://emoji?id=…) or (tg://time?unix=…) part', i);
    }
    if (top.node.type === 'custom_emoji') {
      const id = emojiLinkId(url);
      const time = id === null ? timeLink(url) : null;
      if (id === null && time === null && !hasSlot(url)) {
        return fail(
          `'${url}' is neither tg://emoji?id=<custom emoji id> nor tg://time?unix=<unix time>[&format=<format>]`,
          top.info,
        );
      }
      // With a value's marker in the URL, the emoji stays as opened: what it will be is not known yet.
      let node: TelegramEntity | undefined;
      if (id !== null) node = { type: 'custom_emoji', customEmojiId: id, children: [] };
      else if (time) node = { type: 'date_time', unixTime: time.unixTime, format: time.format, children: [] };
      tree.close(empty ? null : node);
      continue;
    }
    const node = linkNode(url);
    if (!node && !empty) {
      warnings.push({
        message: `[…](${url}) makes no link: Telegram does not read '${url}' as a URL and shows only the text`,
        offset: top.info,
      });
    }
    tree.close(empty ? null : node);
  }

  if (inQuote) {
    // A quote runs to the end of the text; a '||' at the very end marks it expandable.
    let expandable = false;
    if (tree.top?.node.type === 'spoiler' && tree.top.info === input.length - 2) {
      tree.close(null);
      expandable = true;
    }
    if (tree.top?.node.type === 'blockquote') {
      tree.close(tree.topIsEmpty ? null : { type: 'blockquote', expandable, children: [] });
    }
  }
  // Anything still open was never closed.
  if (tree.top) return unclosed();
  return markupResult(tree, null, warnings);
}
