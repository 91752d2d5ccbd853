import type { EntityTree, TelegramNode } from './entities.js';
import { isSpace } from './links.js';
import { toMessageEntities, type TelegramMessageEntity } from './message-entities.js';

/**
 * What the three parse modes have in common: a parser walks the text the way Telegram does
 * (https://core.telegram.org/bots/api#formatting-options), returns the text and entities that remain
 * after entity parsing, and stops at the first thing Telegram would refuse with "can't parse entities",
 * as Telegram does. A renderer can also run a parser over a template's own markup with a marker where
 * each value goes, to learn whether the value sits in plain text, code, a link URL or an attribute, and
 * so which escaping it needs.
 */

/** Private-use characters around a value's index: `\uE000 3 \uE001`. */
export const SLOT_OPEN = '\uE000';
export const SLOT_CLOSE = '\uE001';
export const SLOT_PATTERN = /\uE000(\d+)\uE001/g;

export function slotMarker(index: number): string {
  return `${SLOT_OPEN}${index}${SLOT_CLOSE}`;
}

/**
 * Whether a URL, id or format holds a value marker: what it will be is not known yet, so a parser that
 * reads a template's markup does not refuse it (the rendered message is checked again).
 */
export const hasSlot = (value: string) => value.includes(SLOT_OPEN);

/** Where a substituted value sits, which decides how it is escaped. */
export type SlotContext =
  | 'text'
  /** HTML: inside a quoted attribute value such as href="…". */
  | 'attribute'
  /** MarkdownV2 and legacy Markdown: inside `code` or a ``` block. */
  | 'code'
  | 'pre'
  /** Inside the (…) URL part of a link. */
  | 'url'
  /** Legacy Markdown only: inside *bold*, _italic_ or the [text] of a link, where nothing can be escaped. */
  | 'bold'
  | 'italic'
  | 'link_text';

export interface MarkupIssue {
  message: string;
  /** Index into the parsed string (UTF-16 code units). */
  offset: number;
}

export interface MarkupResult {
  /** The text left after entity parsing, up to the error if there is one. */
  text: string;
  /** The same text as a tree of entities. */
  entities: TelegramNode[];
  /** The entities as the Bot API lists them: flat, sorted, offsets in UTF-16 code units. */
  messageEntities: TelegramMessageEntity[];
  error: MarkupIssue | null;
  warnings: MarkupIssue[];
}

export interface MarkupOptions {
  /** Called for each value marker with the context it sits in. */
  onSlot?: (index: number, context: SlotContext) => void;
}

/** The result of a parser that has read `tree` so far and stops with `error`, if any. */
export function markupResult<Info>(
  tree: EntityTree<Info>,
  error: MarkupIssue | null,
  warnings: MarkupIssue[] = [],
): MarkupResult {
  return {
    text: tree.plainText,
    entities: tree.nodes,
    messageEntities: toMessageEntities(tree.nodes),
    error,
    warnings,
  };
}

/**
 * At a value marker: tells `options.onSlot` the value's index and the context it sits in, and returns
 * where the text after the marker starts; elsewhere returns null. The parsers keep the marker where the
 * value will be, as its text or as part of a URL or attribute, since a value is never empty markup.
 */
export function passSlot(
  input: string,
  i: number,
  context: SlotContext,
  options: MarkupOptions,
): number | null {
  if (input[i] !== SLOT_OPEN) return null;
  const close = input.indexOf(SLOT_CLOSE, i + 1);
  if (close === -1) return null;
  const digits = input.slice(i + 1, close);
  if (!/^\d+$/.test(digits)) return null;
  options.onSlot?.(Number(digits), context);
  return close + 1;
}

/** passSlot where a marker stands for text: the marker is kept in `tree` as the text the value will be. */
export function keepTextSlot<Info>(
  tree: EntityTree<Info>,
  input: string,
  i: number,
  context: SlotContext,
  options: MarkupOptions,
): number | null {
  const afterSlot = passSlot(input, i, context, options);
  if (afterSlot !== null) tree.text(input.slice(i, afterSlot));
  return afterSlot;
}

/** Where the input goes on after the markers standing for text from `i` on, each kept (keepTextSlot). */
export function afterTextSlots<Info>(
  tree: EntityTree<Info>,
  input: string,
  i: number,
  context: SlotContext,
  options: MarkupOptions,
): number {
  let next = i;
  for (;;) {
    const afterSlot = keepTextSlot(tree, input, next, context, options);
    if (afterSlot === null) return next;
    next = afterSlot;
  }
}

export const MISSING_URL_END = "Can't find the end of the link's URL: a ')' is missing";

/**
 * The (…) URL of a link, read from the '(' at `i` to the first ')' that `escapedAt` does not say is
 * escaped by a '\\': the URL with escaped characters taken as written, and where the text after the ')'
 * starts; `closed` is false when no ')' ends it.
 */
export function readLinkUrl(
  input: string,
  i: number,
  options: MarkupOptions,
  escapedAt: (j: number) => boolean = () => false,
): { url: string; end: number; closed: boolean } {
  let url = '';
  let j = i + 1;
  while (j < input.length && input[j] !== ')') {
    const afterSlot = passSlot(input, j, 'url', options);
    if (afterSlot !== null) {
      url += input.slice(j, afterSlot);
      j = afterSlot;
    } else {
      const escaped = escapedAt(j);
      url += input[escaped ? j + 1 : j];
      j += escaped ? 2 : 1;
    }
  }
  return { url, end: Math.min(j + 1, input.length), closed: j < input.length };
}

/**
 * The optional language after an opening ``` and the one line break after it, neither of which is text.
 * As Telegram reads it, a language is a word that white space (not a '`' or the end) ends.
 */
export function readPreOpening(input: string, i: number): { language: string | null; end: number } {
  let end = i;
  while (!isSpace(input[end]) && input[end] !== '`') end += 1;
  const language = end > i && end < input.length && input[end] !== '`' ? input.slice(i, end) : null;
  let j = language === null ? i : end;
  const lineBreak = (c: string | undefined) => c === '\n' || c === '\r';
  if (lineBreak(input[j])) j += lineBreak(input[j + 1]) && input[j + 1] !== input[j] ? 2 : 1;
  return { language, end: j };
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    if (text[i] === '\n') {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** How a character is named in a message: visible, or described when it is not. */
export function describeChar(char: string | undefined): string {
  if (char === undefined) return 'the end of the text';
  if (char === '\n') return 'a line break';
  return `'${char}'`;
}
