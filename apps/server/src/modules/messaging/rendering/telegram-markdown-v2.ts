import {
  describeChar,
  readSlot,
  type MarkupIssue,
  type MarkupOptions,
  type MarkupResult,
  type SlotContext,
} from './telegram-markup.js';

/**
 * Telegram's MarkdownV2 parse mode (https://core.telegram.org/bots/api#markdownv2-style), walked the way
 * Telegram's own parser walks it: any character from 1 to 126 may be escaped with '\'; outside code the
 * characters _ * [ ] ( ) ~ ` > # + - = | { } . ! are markup and must be escaped to be text; inside code and
 * pre only ` and \ are special; inside a link's (…) only ) and \ are.
 */
export const MARKDOWN_V2_RESERVED = '_*[]()~`>#+-=|{}.!';

type Entity =
  | 'bold'
  | 'italic'
  | 'underline'
  | 'strikethrough'
  | 'spoiler'
  | 'code'
  | 'pre'
  | 'link'
  | 'custom emoji'
  | 'blockquote';

const NAMES: Record<Entity, string> = {
  bold: 'bold (*)',
  italic: 'italic (_)',
  underline: 'underline (__)',
  strikethrough: 'strikethrough (~)',
  spoiler: 'spoiler (||)',
  code: 'code (`)',
  pre: 'pre (```)',
  link: 'link ([…](…))',
  'custom emoji': 'custom emoji (![…](…))',
  blockquote: 'block quote (>)',
};

function closes(entity: Entity, input: string, i: number): boolean {
  const c = input[i];
  switch (entity) {
    case 'bold':
      return c === '*';
    case 'italic':
      return c === '_' && input[i + 1] !== '_';
    case 'underline':
      return c === '_' && input[i + 1] === '_';
    case 'strikethrough':
      return c === '~';
    case 'spoiler':
      return c === '|' && input[i + 1] === '|';
    case 'code':
      return c === '`';
    case 'pre':
      return input.startsWith('```', i);
    case 'link':
    case 'custom emoji':
      return c === ']';
    case 'blockquote':
      return false;
  }
}

const isEscapable = (c: string | undefined) =>
  c !== undefined && c.charCodeAt(0) >= 1 && c.charCodeAt(0) <= 126;

export function parseTelegramMarkdownV2(input: string, options: MarkupOptions = {}): MarkupResult {
  let text = '';
  const warnings: MarkupIssue[] = [];
  const open: Array<{ entity: Entity; offset: number }> = [];
  const fail = (message: string, offset: number): MarkupResult => ({
    text,
    error: { message, offset },
    warnings,
  });
  const reserved = (c: string, offset: number) =>
    fail(`Character ${describeChar(c)} is reserved in MarkdownV2 and must be escaped as '\\${c}'`, offset);
  const top = () => open.at(-1)?.entity;
  const inCode = () => top() === 'code' || top() === 'pre';

  let i = 0;
  while (i < input.length) {
    const slot = readSlot(input, i);
    if (slot) {
      const context: SlotContext = top() === 'pre' ? 'pre' : top() === 'code' ? 'code' : 'text';
      options.onSlot?.(slot.index, context);
      i = slot.end;
      continue;
    }
    const c = input[i]!;
    const lineStart = i === 0 || input[i - 1] === '\n';

    // A block quote runs over consecutive lines that start with '>' (or '**>' for an expandable one).
    if (lineStart && !inCode()) {
      const quoted = input[i] === '>' ? 1 : input.startsWith('**>', i) ? 3 : 0;
      if (quoted > 0) {
        if (!open.some((o) => o.entity === 'blockquote')) open.push({ entity: 'blockquote', offset: i });
        i += quoted;
        continue;
      }
      if (top() === 'blockquote' && i > 0) open.pop();
    }

    if (c === '\\' && isEscapable(input[i + 1])) {
      text += input[i + 1];
      i += 2;
      continue;
    }
    const special = inCode() ? '`' : MARKDOWN_V2_RESERVED;
    if (!special.includes(c)) {
      text += c;
      i += 1;
      continue;
    }

    const current = top();
    // '||' at the end of a block quote's last line marks it expandable.
    if (
      current === 'blockquote' &&
      input.startsWith('||', i) &&
      (input[i + 2] === '\n' || i + 2 === input.length)
    ) {
      i += 2;
      continue;
    }
    if (current && closes(current, input, i)) {
      open.pop();
      if (current === 'underline' || current === 'spoiler') i += 2;
      else if (current === 'pre') i += 3;
      else i += 1;
      if (current === 'link' || current === 'custom emoji') {
        if (input[i] !== '(') {
          if (current === 'custom emoji') return fail('A custom emoji needs its (tg://emoji?id=…) part', i);
          continue;
        }
        const urlStart = i;
        i += 1;
        while (i < input.length && input[i] !== ')') {
          const inner = readSlot(input, i);
          if (inner) {
            options.onSlot?.(inner.index, 'url');
            i = inner.end;
          } else {
            i += input[i] === '\\' && isEscapable(input[i + 1]) ? 2 : 1;
          }
        }
        if (i >= input.length)
          return fail("Can't find the end of the link's URL: a ')' is missing", urlStart);
        i += 1;
      }
      continue;
    }

    const offset = i;
    let entity: Entity;
    switch (c) {
      case '_':
        entity = input[i + 1] === '_' ? 'underline' : 'italic';
        i += entity === 'underline' ? 2 : 1;
        break;
      case '*':
        entity = 'bold';
        i += 1;
        break;
      case '~':
        entity = 'strikethrough';
        i += 1;
        break;
      case '|':
        if (input[i + 1] !== '|') return reserved(c, i);
        entity = 'spoiler';
        i += 2;
        break;
      case '[':
        entity = 'link';
        i += 1;
        break;
      case '!':
        if (input[i + 1] !== '[') return reserved(c, i);
        entity = 'custom emoji';
        i += 2;
        break;
      case '`':
        if (input.startsWith('```', i)) {
          entity = 'pre';
          i += 3;
          // An optional language, then one line break, are not part of the text.
          while (i < input.length && !/[\s`]/.test(input[i]!)) i += 1;
          if (input[i] === '\r' && input[i + 1] === '\n') i += 2;
          else if (input[i] === '\n' || input[i] === '\r') i += 1;
        } else {
          entity = 'code';
          i += 1;
        }
        break;
      default:
        return reserved(c, i);
    }
    if ((entity === 'link' || entity === 'custom emoji') && open.some((o) => o.entity === 'link')) {
      return fail('A link cannot contain another link', offset);
    }
    open.push({ entity, offset });
  }

  const unclosed = open.filter((o) => o.entity !== 'blockquote').at(-1);
  if (unclosed) {
    return fail(
      `Can't find the end of the ${NAMES[unclosed.entity]} entity that starts here`,
      unclosed.offset,
    );
  }
  return { text, error: null, warnings };
}
