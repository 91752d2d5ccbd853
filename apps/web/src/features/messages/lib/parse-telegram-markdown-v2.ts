import { TelegramTreeBuilder, type ParsedMessage, type TelegramContainer } from './telegram-nodes';

/*
 * Telegram's MarkdownV2 (https://core.telegram.org/bots/api#markdownv2-style), walked the way Telegram
 * walks it: '\' escapes any character from 1 to 126; outside code the characters _ * [ ] ( ) ~ ` > # + - = | { } . !
 * are markup; inside code and pre only ` and \ are special; entities nest; '__' is underline, '_' italic.
 */
const RESERVED = '_*[]()~`>#+-=|{}.!';

const isEscapable = (c: string | undefined) =>
  c !== undefined && c.charCodeAt(0) >= 1 && c.charCodeAt(0) <= 126;

/** Whether the character at `i` ends the innermost entity. */
function closes(entity: TelegramContainer, input: string, i: number): boolean {
  const c = input[i];
  switch (entity.type) {
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

const MARKER_LENGTH: Partial<Record<TelegramContainer['type'], number>> = {
  underline: 2,
  spoiler: 2,
  pre: 3,
};

/** Reads the '(url)' after a link's text; returns the URL and where the text after it starts. */
function readUrl(input: string, i: number): { url: string; end: number } | null {
  if (input[i] !== '(') return null;
  let url = '';
  let j = i + 1;
  while (j < input.length && input[j] !== ')') {
    if (input[j] === '\\' && isEscapable(input[j + 1])) {
      url += input[j + 1];
      j += 2;
    } else {
      url += input[j];
      j += 1;
    }
  }
  return j < input.length ? { url, end: j + 1 } : null;
}

/** The entity a markup character opens at `i`, and how many characters its marker takes. */
function opening(input: string, i: number): { entity: TelegramContainer; length: number } | null {
  switch (input[i]) {
    case '_':
      return input[i + 1] === '_'
        ? { entity: { type: 'underline', children: [] }, length: 2 }
        : { entity: { type: 'italic', children: [] }, length: 1 };
    case '*':
      return { entity: { type: 'bold', children: [] }, length: 1 };
    case '~':
      return { entity: { type: 'strikethrough', children: [] }, length: 1 };
    case '|':
      return input[i + 1] === '|' ? { entity: { type: 'spoiler', children: [] }, length: 2 } : null;
    case '[':
      return { entity: { type: 'link', url: '', children: [] }, length: 1 };
    case '!':
      return input[i + 1] === '[' ? { entity: { type: 'custom_emoji', children: [] }, length: 2 } : null;
    case '`': {
      if (!input.startsWith('```', i)) return { entity: { type: 'code', children: [] }, length: 1 };
      // An optional language (a word followed by white space), then one line break, are not text.
      const language = /^```(?:([^\s`]+)(?=\s))?(?:\r?\n)?/.exec(input.slice(i))!;
      return {
        entity: { type: 'pre', language: language[1] ?? null, children: [] },
        length: language[0].length,
      };
    }
    default:
      return null;
  }
}

export function parseTelegramMarkdownV2(input: string): ParsedMessage {
  const tree = new TelegramTreeBuilder();
  const inCode = () => tree.top?.type === 'code' || tree.top?.type === 'pre';
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;

    // A block quote runs over consecutive lines that start with '>' ('**>' for an expandable one).
    if ((i === 0 || input[i - 1] === '\n') && !inCode()) {
      const marker = c === '>' ? 1 : input.startsWith('**>', i) ? 3 : 0;
      if (marker > 0) {
        if (!tree.isOpen('blockquote'))
          tree.open({ type: 'blockquote', expandable: marker === 3, children: [] });
        i += marker;
        continue;
      }
      if (tree.top?.type === 'blockquote') tree.close();
    }

    if (c === '\\' && isEscapable(input[i + 1])) {
      tree.text(input[i + 1]!);
      i += 2;
      continue;
    }
    if (!(inCode() ? '`' : RESERVED).includes(c)) {
      tree.text(c);
      i += 1;
      continue;
    }

    const top = tree.top;
    // '||' at the end of a block quote's last line only marks it expandable.
    if (top?.type === 'blockquote' && /^\|\|(\n|$)/.test(input.slice(i, i + 3))) {
      i += 2;
      continue;
    }
    if (top && closes(top, input, i)) {
      tree.close();
      i += MARKER_LENGTH[top.type] ?? 1;
      if (top.type === 'link' || top.type === 'custom_emoji') {
        const url = readUrl(input, i);
        if (url) {
          if (top.type === 'link') top.url = url.url;
          i = url.end;
        } else if (top.type === 'custom_emoji' || input[i] === '(') {
          return { ok: false, error: "Can't find the end of a link's URL" };
        }
      }
      continue;
    }

    const next = opening(input, i);
    if (!next) return { ok: false, error: `Character '${c}' is reserved and must be escaped` };
    if (next.entity.type === 'link' && tree.isOpen('link')) {
      return { ok: false, error: 'A link cannot contain another link' };
    }
    tree.open(next.entity);
    i += next.length;
  }
  const unclosed = tree.top;
  if (unclosed && unclosed.type !== 'blockquote') {
    return { ok: false, error: `Can't find the end of the ${unclosed.type} entity` };
  }
  return tree.result();
}
