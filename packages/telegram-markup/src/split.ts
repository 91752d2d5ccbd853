import { sortEntities, type MessageEntityType, type TelegramMessageEntity } from './message-entities.js';
import { TELEGRAM_TEXT_MAX_LENGTH } from './parse-mode.js';

/** A message's text with its entities, offsets in UTF-16 code units, as sendMessage takes them. */
export interface FormattedText {
  text: string;
  entities: TelegramMessageEntity[];
}

export interface SplitOptions {
  /** The longest part, in UTF-16 code units; Telegram's limit for a message by default. At least 2. */
  maxLength?: number;
}

/**
 * Entities that mean something only whole: a custom emoji is drawn over all of its text, a mention
 * names one user, a date is one point in time. No cut falls inside one.
 */
const UNSPLITTABLE = new Set<MessageEntityType>(['custom_emoji', 'text_mention', 'date_time']);

/** How good a cut is: after a blank line, after a line break, after white space; a hard cut is 0. */
const PARAGRAPH = 3;
const LINE = 2;
const WORD = 1;

/** Whether a cut at `p` would fall between the two halves of a surrogate pair. */
function splitsPair(text: string, p: number): boolean {
  const before = text.charCodeAt(p - 1);
  const after = text.charCodeAt(p);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

const isWhiteSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

/**
 * The positions no cut may fall on: between the two halves of a surrogate pair, and inside an entity
 * that cannot be split.
 */
function blockedPositions(text: string, entities: readonly TelegramMessageEntity[]): Uint8Array {
  const blocked = new Uint8Array(text.length + 1);
  for (let p = 1; p < text.length; p += 1) if (splitsPair(text, p)) blocked[p] = 1;
  for (const entity of entities) {
    if (!UNSPLITTABLE.has(entity.type)) continue;
    for (let p = entity.offset + 1; p < entity.offset + entity.length && p <= text.length; p += 1) {
      blocked[p] = 1;
    }
  }
  return blocked;
}

/** The kind of boundary at `p`, which starts a word after white space, or 0. */
function boundaryAt(text: string, p: number): number {
  if (!isWhiteSpace(text[p - 1]) || isWhiteSpace(text[p])) return 0;
  let lineBreaks = 0;
  for (let q = p - 1; q >= 0 && isWhiteSpace(text[q]) && lineBreaks < 2; q -= 1) {
    if (text[q] === '\n') lineBreaks += 1;
  }
  return lineBreaks >= 2 ? PARAGRAPH : lineBreaks === 1 ? LINE : WORD;
}

/**
 * Where the part that starts at `start` ends, at most `limit`: the last paragraph boundary before the
 * limit, else the last line boundary, else the last word boundary, else as late as a cut may fall; only
 * when an unsplittable entity is itself longer than a part is it cut.
 */
function cutAfter(text: string, start: number, limit: number, blocked: Uint8Array): number {
  const best = [0, 0, 0, 0];
  for (let p = limit; p > start; p -= 1) {
    if (blocked[p]) continue;
    const kind = boundaryAt(text, p);
    if (best[kind] === 0) best[kind] = p;
    if (kind === PARAGRAPH) break;
  }
  const cut = best[PARAGRAPH] || best[LINE] || best[WORD] || best[0];
  if (cut) return cut;
  return limit - 1 > start && splitsPair(text, limit) ? limit - 1 : limit;
}

/** The entities over `[start, end)`, clipped to it and with offsets relative to `start`. */
function entitiesWithin(entities: readonly TelegramMessageEntity[], start: number, end: number) {
  const part: TelegramMessageEntity[] = [];
  for (const entity of entities) {
    const from = Math.max(entity.offset, start);
    const to = Math.min(entity.offset + entity.length, end);
    if (to > from) part.push({ ...entity, offset: from - start, length: to - from });
  }
  return sortEntities(part);
}

/**
 * Splits a message that is longer than Telegram takes (sendMessage: 4096 UTF-16 code units after entity
 * parsing) into consecutive parts that each fit, joined they are the text again. A part ends at a
 * paragraph boundary if it can, else at a line boundary, else after a word; a word longer than a part is
 * cut where the part is full, never between the halves of a surrogate pair. No cut falls inside a custom
 * emoji, a text mention or a date. An entity a cut goes through is reopened in the next part: each part
 * has its own entities, offsets relative to the part. A text that fits is returned as the one part.
 */
export function splitFormattedText(
  message: { text: string; entities: readonly TelegramMessageEntity[] },
  options: SplitOptions = {},
): FormattedText[] {
  const maxLength = options.maxLength ?? TELEGRAM_TEXT_MAX_LENGTH;
  if (!Number.isInteger(maxLength) || maxLength < 2) {
    throw new RangeError(`maxLength must be an integer of at least 2, not ${maxLength}`);
  }
  const { text, entities } = message;
  if (text.length <= maxLength) return [{ text, entities: entitiesWithin(entities, 0, text.length) }];

  const blocked = blockedPositions(text, entities);
  const parts: FormattedText[] = [];
  let start = 0;
  while (text.length - start > maxLength) {
    const end = cutAfter(text, start, start + maxLength, blocked);
    parts.push({ text: text.slice(start, end), entities: entitiesWithin(entities, start, end) });
    start = end;
  }
  parts.push({ text: text.slice(start), entities: entitiesWithin(entities, start, text.length) });
  return parts;
}
