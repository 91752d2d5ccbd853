import { TelegramTreeBuilder, type ParsedMessage, type TelegramContainer } from './telegram-nodes';

/*
 * Telegram's legacy Markdown (https://core.telegram.org/bots/api#markdown-style): *bold*, _italic_, `code`,
 * ```pre``` and [text](url). Entities do not nest and nothing can be escaped inside one; outside them '\'
 * escapes _ * ` [.
 */
const SPECIAL = '_*`[';
const SIMPLE: Record<string, { close: string; type: 'bold' | 'italic' | 'code' }> = {
  '*': { close: '*', type: 'bold' },
  _: { close: '_', type: 'italic' },
  '`': { close: '`', type: 'code' },
};

export function parseTelegramMarkdown(input: string): ParsedMessage {
  const tree = new TelegramTreeBuilder();
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === '\\' && SPECIAL.includes(input[i + 1] ?? '')) {
      tree.text(input[i + 1]!);
      i += 2;
      continue;
    }
    if (!SPECIAL.includes(c)) {
      tree.text(c);
      i += 1;
      continue;
    }

    let entity: TelegramContainer;
    let close: string;
    if (input.startsWith('```', i)) {
      // An optional language (a word followed by white space), then one line break, are not text.
      const opening = /^```(?:([^\s`]+)(?=\s))?(?:\r?\n)?/.exec(input.slice(i))!;
      entity = { type: 'pre', language: opening[1] ?? null, children: [] };
      close = '```';
      i += opening[0].length;
    } else if (c === '[') {
      entity = { type: 'link', url: '', children: [] };
      close = ']';
      i += 1;
    } else {
      const simple = SIMPLE[c]!;
      entity = { type: simple.type, children: [] };
      close = simple.close;
      i += 1;
    }
    const end = input.indexOf(close, i);
    if (end === -1) return { ok: false, error: `Can't find the end of the ${entity.type} entity` };
    tree.open(entity);
    tree.text(input.slice(i, end));
    tree.close();
    i = end + close.length;

    if (entity.type === 'link' && input[i] === '(') {
      const urlEnd = input.indexOf(')', i);
      if (urlEnd === -1) return { ok: false, error: "Can't find the end of a link's URL" };
      entity.url = input.slice(i + 1, urlEnd);
      i = urlEnd + 1;
    }
  }
  return tree.result();
}
