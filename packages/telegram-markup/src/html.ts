import { EntityTree, type TelegramEntity, type TelegramNode } from './entities.js';
import { decodeCharacterReference, isSurrogate, readStartTag, type StartTag } from './html-tags.js';
import { asciiLower, canonicalInteger, dateTimeFormat, isSpace, linkNode } from './links.js';
import {
  hasSlot,
  markupResult,
  afterTextSlots,
  type MarkupIssue,
  type MarkupOptions,
  type MarkupResult,
} from './markup.js';

/**
 * Telegram's HTML parse mode (https://core.telegram.org/bots/api#html-style), read as Telegram's parser
 * reads it: only the supported tags, properly nested, where '</>' closes the innermost one; '<' that is
 * not markup written as &lt;; the character references &lt; &gt; &amp; &quot; and numeric ones. An
 * entity without text is dropped; so is a link whose href (or, without one, whose text) is not a URL.
 */

type OpenTag = StartTag & { offset: number };

const SIMPLE: Record<string, 'bold' | 'italic' | 'underline' | 'strikethrough' | 'spoiler' | 'code'> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
  code: 'code',
};
const CODE_TAGS = new Set(['code', 'pre']);

/** The node a start tag opens; closing the tag decides what Telegram keeps of it. */
function nodeFor(tag: StartTag): TelegramEntity {
  switch (tag.name) {
    case 'a':
      return { type: 'link', url: tag.argument, children: [] };
    case 'tg-emoji':
      return { type: 'custom_emoji', customEmojiId: tag.argument, children: [] };
    case 'tg-time':
      return { type: 'date_time', unixTime: tag.unix, format: tag.argument, children: [] };
    case 'pre':
      return { type: 'pre', language: null, children: [] };
    case 'blockquote':
      return { type: 'blockquote', expandable: tag.argument !== '', children: [] };
    default:
      return { type: SIMPLE[tag.name]!, children: [] };
  }
}

export function parseTelegramHtml(input: string, options: MarkupOptions = {}): MarkupResult {
  const tree = new EntityTree<OpenTag>();
  const warnings: MarkupIssue[] = [];
  const fail = (message: string, offset: number) => markupResult(tree, { message, offset }, warnings);
  const at = (j: number) => input[j] ?? '\0';
  // The entity kept last, which a <pre> and a <code class="language-…"> over the same text merge with.
  let lastKept: { node: TelegramEntity; start: number; end: number; language: string } | null = null;
  let surrogateAt = -1;

  /** Closes the innermost tag as Telegram does; returns an error message when it refuses the message. */
  const closeTag = (): string | null => {
    const { node, start, info: tag } = tree.top!;
    if (tree.topIsEmpty) {
      tree.close(null);
      return null;
    }
    const end = tree.plainText.length;
    // What Telegram keeps: the node as opened (undefined), another entity, or nothing (null).
    let kept: TelegramEntity | null | undefined;
    // A <pre> and a <code class="language-…"> right inside or around it, over the same text, are one
    // code block in that language (TDLib's PreCode); the inner one's children become the block's.
    let merged: TelegramNode[] | undefined;
    const last = lastKept !== null && lastKept.start === start && lastKept.end === end ? lastKept : null;
    switch (tag.name) {
      case 'tg-emoji': {
        const id = canonicalInteger(tag.argument, 64);
        if (id !== null && id !== 0n) kept = { type: 'custom_emoji', customEmojiId: `${id}`, children: [] };
        else if (!hasSlot(tag.argument))
          return '<tg-emoji> needs an emoji-id attribute: the id of a custom emoji';
        break;
      }
      case 'tg-time': {
        const format = dateTimeFormat(tag.argument);
        if (format === null && !hasSlot(tag.argument)) {
          return `<tg-time format="${tag.argument}">: the format is 'r' or any of the letters w, d, D, t and T`;
        }
        if (tag.unix > 0)
          kept = { type: 'date_time', unixTime: tag.unix, format: format ?? '', children: [] };
        else {
          kept = null;
          warnings.push({
            message: '<tg-time> has no positive unix attribute: Telegram shows its text as written',
            offset: tag.offset,
          });
        }
        break;
      }
      case 'a': {
        const url = tag.argument || tree.plainText.slice(start);
        kept = linkNode(url);
        if (!kept) {
          warnings.push({
            message: tag.argument
              ? `<a href="${url}"> makes no link: Telegram does not read it as a URL and shows only the text`
              : '<a> has no href and its text is not a URL: Telegram makes no link',
            offset: tag.offset,
          });
        }
        break;
      }
      case 'pre':
        if (last?.node.type === 'code' && last.language) {
          kept = { type: 'pre', language: last.language, children: [] };
          merged = last.node.children;
        }
        break;
      case 'code':
        if (last?.node.type === 'pre' && tag.argument) {
          kept = { type: 'pre', language: tag.argument, children: [] };
          merged = last.node.children;
        }
        break;
    }
    tree.close(kept);
    if (kept && merged) kept.children = merged;
    if (kept !== null) {
      const language = tag.name === 'code' && !merged ? tag.argument : '';
      lastKept = { node: kept ?? node, start, end, language };
    }
    return null;
  };

  const skipSlots = (from: number) => afterTextSlots(tree, input, from, 'text', options);
  for (let i = skipSlots(0); i < input.length; i = skipSlots(i)) {
    const c = input[i]!;
    if (c === '&') {
      const reference = decodeCharacterReference(input, i);
      if (reference) {
        if (isSurrogate(reference.code) && surrogateAt === -1) surrogateAt = i;
        tree.text(String.fromCodePoint(reference.code));
        i = reference.end;
        continue;
      }
      const named = /^&([A-Za-z][A-Za-z0-9]*);/.exec(input.slice(i, i + 34));
      if (named) {
        warnings.push({
          message: `Telegram knows only the named entities &lt; &gt; &amp; &quot;: '${named[0]}' will show as written`,
          offset: i,
        });
      }
    }
    if (c !== '<') {
      tree.text(c);
      i += 1;
      continue;
    }

    const start = i;
    if (at(i + 1) !== '/') {
      const tag = readStartTag(input, start, options);
      if ('message' in tag) return fail(tag.message, tag.offset);
      if (tag.name === 'span' && tag.argument !== 'spoiler') {
        return fail('Telegram supports <span> only as a spoiler: <span class="tg-spoiler">', start);
      }
      const inside = tree.top?.info.name;
      if (inside && CODE_TAGS.has(inside) && !(inside === 'pre' && tag.name === 'code')) {
        warnings.push({
          message: `Telegram shows no formatting inside <${inside}>: <${tag.name}> is ignored`,
          offset: start,
        });
      }
      if (
        (tag.name === 'a' || tag.name === 'blockquote') &&
        tree.isOpen(tag.name === 'a' ? 'link' : 'blockquote')
      ) {
        warnings.push({ message: `<${tag.name}> cannot contain another <${tag.name}>`, offset: start });
      }
      tree.open(nodeFor(tag), { ...tag, offset: start });
      i = tag.end;
      continue;
    }

    let j = i + 2;
    while (!isSpace(at(j)) && at(j) !== '>') j += 1;
    const name = asciiLower(input.slice(i + 2, j));
    const open = tree.top;
    if (!open) return fail(`Unexpected end tag </${name}>: no tag is open`, start);
    while (at(j) !== '\0' && isSpace(at(j))) j += 1;
    if (at(j) !== '>') return fail("An end tag is not closed with '>'", start);
    if (name && name !== open.info.name) {
      return fail(`Tags are not properly nested: expected </${open.info.name}>, found </${name}>`, start);
    }
    const refused = closeTag();
    if (refused) return fail(refused, open.info.offset);
    i = j + 1;
  }

  const unclosed = tree.top?.info;
  if (unclosed) return fail(`<${unclosed.name}> is never closed: add </${unclosed.name}>`, unclosed.offset);
  if (surrogateAt !== -1) {
    return fail(
      'This character reference is half of a UTF-16 surrogate pair, which Telegram refuses: write the character itself or its code point',
      surrogateAt,
    );
  }
  return markupResult(tree, null, warnings);
}
