import { EntityTree, type TelegramEntity } from './entities.js';
import { markupResult, passSlot, type MarkupIssue, type MarkupOptions, type MarkupResult } from './markup.js';

/**
 * Telegram's HTML parse mode (https://core.telegram.org/bots/api#html-style): only these tags, properly
 * nested; '<' and '&' that are not markup written as entities; the named entities &lt; &gt; &amp; &quot;
 * and every numeric one.
 */
type SimpleType = 'bold' | 'italic' | 'underline' | 'strikethrough' | 'spoiler' | 'code' | 'custom_emoji';
const SIMPLE_TAGS: Record<string, SimpleType> = {
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
  code: 'code',
  'tg-emoji': 'custom_emoji',
};
const SUPPORTED_TAGS = new Set([...Object.keys(SIMPLE_TAGS), 'span', 'a', 'tg-time', 'pre', 'blockquote']);
const SUPPORTED_LIST =
  '<b>, <strong>, <i>, <em>, <u>, <ins>, <s>, <strike>, <del>, <span class="tg-spoiler">, <tg-spoiler>, <a href>, <tg-emoji>, <tg-time>, <code>, <pre>, <blockquote>';
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
const CODE_TAGS = new Set(['code', 'pre']);

function decodeEntity(input: string, i: number): { value: string; end: number } | null {
  const match = /^&(#\d{1,8}|#[xX][0-9a-fA-F]{1,7}|[A-Za-z][A-Za-z0-9]{0,31});/.exec(input.slice(i, i + 42));
  if (!match) return null;
  const name = match[1]!;
  let value: string | undefined;
  if (name.startsWith('#')) {
    const code =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    if (code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff))
      value = String.fromCodePoint(code);
  } else {
    value = NAMED_ENTITIES[name];
  }
  return value === undefined ? null : { value, end: i + match[0].length };
}

/** The entity a start tag opens; null for <tg-time>, whose text Telegram shows as it is. */
function entityFor(tag: string, attributes: Map<string, string>): TelegramEntity | null {
  const simple = SIMPLE_TAGS[tag];
  if (simple) return { type: simple, children: [] };
  switch (tag) {
    case 'span':
      return { type: 'spoiler', children: [] };
    case 'a':
      return { type: 'link', url: attributes.get('href') ?? '', children: [] };
    case 'pre':
      return { type: 'pre', language: null, children: [] };
    case 'blockquote':
      return { type: 'blockquote', expandable: attributes.has('expandable'), children: [] };
    default:
      return null;
  }
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\t' || c === '\r';

export function parseTelegramHtml(input: string, options: MarkupOptions = {}): MarkupResult {
  const tree = new EntityTree();
  const warnings: MarkupIssue[] = [];
  // Tags as written, so '</b>' cannot close '<strong>'; `entity` is false for a tag that adds none.
  const open: Array<{ tag: string; offset: number; entity: boolean }> = [];
  const fail = (message: string, offset: number) => markupResult(tree, { message, offset }, warnings);

  let i = 0;
  while (i < input.length) {
    const afterSlot = passSlot(input, i, 'text', options);
    if (afterSlot !== null) {
      i = afterSlot;
      continue;
    }
    const c = input[i]!;
    if (c === '&') {
      const entity = decodeEntity(input, i);
      if (entity) {
        tree.text(entity.value);
        i = entity.end;
        continue;
      }
      const named = /^&([A-Za-z][A-Za-z0-9]*);/.exec(input.slice(i, i + 34));
      if (named) {
        warnings.push({
          message: `Telegram knows only the named entities &lt; &gt; &amp; &quot;: '${named[0]}' will show as written`,
          offset: i,
        });
      }
      tree.text(c);
      i += 1;
      continue;
    }
    if (c !== '<') {
      tree.text(c);
      i += 1;
      continue;
    }

    const start = i;
    if (input[i + 1] === '/') {
      const close = input.indexOf('>', i);
      if (close === -1) return fail("An end tag is not closed with '>'", start);
      const name = input
        .slice(i + 2, close)
        .trim()
        .toLowerCase();
      const last = open.pop();
      if (!last) return fail(`Unexpected end tag </${name}>: no tag is open`, start);
      if (last.tag !== name) {
        return fail(`Tags are not properly nested: expected </${last.tag}>, found </${name}>`, start);
      }
      if (last.entity) tree.close();
      i = close + 1;
      continue;
    }

    let j = i + 1;
    while (j < input.length && !isSpace(input[j]) && input[j] !== '>' && input[j] !== '/') j += 1;
    const tag = input.slice(i + 1, j).toLowerCase();
    if (!tag) return fail("A '<' that is not part of a tag must be written as &lt;", start);
    if (!SUPPORTED_TAGS.has(tag)) {
      const hint = tag === 'br' ? ' (write a line break instead of <br>)' : '';
      return fail(`Unsupported tag <${tag}>${hint}. Telegram supports ${SUPPORTED_LIST}`, start);
    }

    const attributes = new Map<string, string>();
    for (;;) {
      while (isSpace(input[j])) j += 1;
      if (j >= input.length) return fail(`The tag <${tag}> is not closed with '>'`, start);
      if (input[j] === '>') break;
      if (input[j] === '/')
        return fail(`Telegram does not accept self-closing tags such as <${tag}/>`, start);
      const nameStart = j;
      while (j < input.length && !isSpace(input[j]) && !['=', '>', '/'].includes(input[j]!)) j += 1;
      const attribute = input.slice(nameStart, j).toLowerCase();
      while (isSpace(input[j])) j += 1;
      if (input[j] !== '=') {
        attributes.set(attribute, '');
        continue;
      }
      j += 1;
      while (isSpace(input[j])) j += 1;
      let value = '';
      const quote = input[j] === '"' || input[j] === "'" ? input[j] : null;
      if (quote) j += 1;
      for (;;) {
        if (j >= input.length) return fail(`The tag <${tag}> is not closed with '>'`, start);
        const afterSlot = passSlot(input, j, 'attribute', options);
        if (afterSlot !== null) {
          j = afterSlot;
          continue;
        }
        const ch = input[j]!;
        if (quote ? ch === quote : isSpace(ch) || ch === '>') break;
        const entity = ch === '&' ? decodeEntity(input, j) : null;
        value += entity ? entity.value : ch;
        j = entity ? entity.end : j + 1;
      }
      if (quote) j += 1;
      attributes.set(attribute, value);
    }
    j += 1;

    if (tag === 'span' && attributes.get('class') !== 'tg-spoiler') {
      return fail('Telegram supports <span> only as a spoiler: <span class="tg-spoiler">', start);
    }
    if (tag === 'tg-emoji' && !attributes.get('emoji-id')) {
      return fail('<tg-emoji> needs an emoji-id attribute', start);
    }
    if (tag === 'tg-time' && !attributes.get('unix')) return fail('<tg-time> needs a unix attribute', start);
    if (tag === 'a' && !attributes.get('href')) {
      warnings.push({ message: '<a> has no href: Telegram will not make it a link', offset: start });
    }
    const inside = open.at(-1)?.tag;
    const top = tree.top;
    if (tag === 'code' && inside === 'pre' && top?.type === 'pre' && top.children.length === 0) {
      // <pre><code class="language-x"> is a code block in that language, not code inside a block.
      top.language = /^language-(.+)$/.exec(attributes.get('class') ?? '')?.[1] ?? top.language;
      open.push({ tag, offset: start, entity: false });
      i = j;
      continue;
    }
    if (inside && CODE_TAGS.has(inside) && !(inside === 'pre' && tag === 'code')) {
      warnings.push({
        message: `Telegram shows no formatting inside <${inside}>: <${tag}> is ignored`,
        offset: start,
      });
    }
    if ((tag === 'a' || tag === 'blockquote') && open.some((o) => o.tag === tag)) {
      warnings.push({ message: `<${tag}> cannot contain another <${tag}>`, offset: start });
    }
    const entity = entityFor(tag, attributes);
    if (entity) tree.open(entity);
    open.push({ tag, offset: start, entity: entity !== null });
    i = j;
  }

  const unclosed = open.at(-1);
  if (unclosed) return fail(`<${unclosed.tag}> is never closed: add </${unclosed.tag}>`, unclosed.offset);
  return markupResult(tree, null, warnings);
}
