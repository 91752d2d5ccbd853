import { TelegramTreeBuilder, type ParsedMessage, type TelegramContainer } from './telegram-nodes';

/*
 * Telegram's HTML parse mode (https://core.telegram.org/bots/api#html-style): a small set of tags, properly
 * nested, and the entities &lt; &gt; &amp; &quot; plus numeric ones. Anything else is not markup Telegram
 * accepts, so the parse fails and the preview shows the text as it is.
 */
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
const ENTITY_PATTERN = /^&(#\d{1,8}|#[xX][0-9a-fA-F]{1,7}|lt|gt|amp|quot);/;

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

function decodeEntity(input: string, at: number): { value: string; length: number } | null {
  const match = ENTITY_PATTERN.exec(input.slice(at, at + 12));
  if (!match) return null;
  const name = match[1]!;
  if (!name.startsWith('#')) return { value: NAMED_ENTITIES[name]!, length: match[0].length };
  const hex = name[1] === 'x' || name[1] === 'X';
  const code = Number.parseInt(name.slice(hex ? 2 : 1), hex ? 16 : 10);
  if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
  return { value: String.fromCodePoint(code), length: match[0].length };
}

function decodeText(value: string): string {
  let out = '';
  for (let i = 0; i < value.length;) {
    const entity = value[i] === '&' ? decodeEntity(value, i) : null;
    out += entity ? entity.value : value[i];
    i += entity ? entity.length : 1;
  }
  return out;
}

const TAG_PATTERN =
  /^<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z-]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*>/;
const ATTRIBUTE_PATTERN = /([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

function readAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(ATTRIBUTE_PATTERN)) {
    attributes.set(match[1]!.toLowerCase(), decodeText(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return attributes;
}

/** The entity a start tag opens, or null when Telegram does not support the tag. */
function entityFor(tag: string, attributes: Map<string, string>): TelegramContainer | null {
  const simple = SIMPLE_TAGS[tag];
  if (simple) return { type: simple, children: [] };
  switch (tag) {
    case 'span':
      return attributes.get('class') === 'tg-spoiler' ? { type: 'spoiler', children: [] } : null;
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

export function parseTelegramHtml(input: string): ParsedMessage {
  const tree = new TelegramTreeBuilder();
  // Tag names as written, so '</b>' cannot close '<strong>'; null marks a tag that adds no entity.
  const openTags: Array<{ tag: string; entity: boolean }> = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === '&') {
      const entity = decodeEntity(input, i);
      tree.text(entity ? entity.value : c);
      i += entity ? entity.length : 1;
      continue;
    }
    if (c !== '<') {
      const next = input.slice(i).search(/[<&]/);
      const end = next === -1 ? input.length : i + next;
      tree.text(input.slice(i, end));
      i = end;
      continue;
    }

    const end = /^<\/([a-zA-Z][a-zA-Z0-9-]*)\s*>/.exec(input.slice(i));
    if (end) {
      const tag = end[1]!.toLowerCase();
      const last = openTags.pop();
      if (last?.tag !== tag) return { ok: false, error: `Unexpected </${tag}>` };
      if (last.entity) tree.close();
      i += end[0].length;
      continue;
    }

    const start = TAG_PATTERN.exec(input.slice(i));
    if (!start) return { ok: false, error: "A '<' that is not part of a tag" };
    const tag = start[1]!.toLowerCase();
    const attributes = readAttributes(start[2] ?? '');
    const top = tree.top;
    // <pre><code class="language-x"> is a code block in that language, not code inside a block.
    if (tag === 'code' && top?.type === 'pre' && top.children.length === 0) {
      const language = /^language-(.+)$/.exec(attributes.get('class') ?? '');
      if (language) top.language = language[1]!;
      openTags.push({ tag, entity: false });
    } else if (tag === 'tg-time') {
      openTags.push({ tag, entity: false });
    } else {
      const entity = entityFor(tag, attributes);
      if (!entity) return { ok: false, error: `Unsupported tag <${tag}>` };
      tree.open(entity);
      openTags.push({ tag, entity: true });
    }
    i += start[0].length;
  }
  const unclosed = openTags.at(-1);
  return unclosed ? { ok: false, error: `<${unclosed.tag}> is never closed` } : tree.result();
}
