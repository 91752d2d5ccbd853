import type { MarkupResult } from '../../markup.js';
import type { TelegramMessageEntity } from '../../message-entities.js';

/**
 * One entity as [type, offset, length, ...its data]: a pre's language, a text_link's URL, a
 * text_mention's user id, a custom_emoji's id, a date_time's unix time and date_time_format.
 */
export type VectorEntity = readonly [
  type: string,
  offset: number,
  length: number,
  ...data: Array<string | number>,
];

/** A message and what Telegram makes of it: its text and entities, or the error it refuses it with. */
export type ParseVector =
  { input: string; refused: string } | { input: string; text: string; entities: VectorEntity[] };

export function vectorEntity(entity: TelegramMessageEntity): VectorEntity {
  const { type, offset, length } = entity;
  switch (entity.type) {
    case 'pre':
      return entity.language === undefined ? [type, offset, length] : [type, offset, length, entity.language];
    case 'text_link':
      return [type, offset, length, entity.url];
    case 'text_mention':
      return [type, offset, length, entity.user.id];
    case 'custom_emoji':
      return [type, offset, length, entity.custom_emoji_id];
    case 'date_time':
      return [type, offset, length, entity.unix_time, entity.date_time_format];
    default:
      return [type, offset, length];
  }
}

/** What a parser made of a message, in the vectors' terms. */
export function outcome(result: MarkupResult): string {
  if (result.error) return `refused: ${result.error.message}`;
  return JSON.stringify({ text: result.text, entities: result.messageEntities.map(vectorEntity) });
}

export function expectedOutcome(vector: ParseVector): string {
  if ('refused' in vector) return `refused: ${vector.refused}`;
  return JSON.stringify({ text: vector.text, entities: vector.entities });
}

/** Whether a parser agrees with a vector: the same text and entities, or both refuse the message. */
export function agrees(vector: ParseVector, result: MarkupResult): boolean {
  if ('refused' in vector) return result.error !== null;
  return outcome(result) === expectedOutcome(vector);
}

/** The characters MarkdownV2 reserves that do not start an entity on their own: ] ( ) > # + - = | { } . ! */
const RESERVED_ALONE = ']()>#+-=|{}.!';
/** The characters that start an entity, which a message of that character alone leaves open. */
const BEGINS_ENTITY = '_*[~`>';

/**
 * The MarkdownV2 test's opening loop, as data: every character from U+0001 to U+007D alone is text,
 * except a reserved one, which Telegram refuses unescaped and takes as text after a '\'. Characters
 * that start an entity are left out, as in the test.
 */
export function singleCharacterVectors(): ParseVector[] {
  const vectors: ParseVector[] = [];
  for (let code = 1; code < 126; code += 1) {
    const c = String.fromCharCode(code);
    if (BEGINS_ENTITY.includes(c)) continue;
    if (!RESERVED_ALONE.includes(c)) {
      vectors.push({ input: c, text: c, entities: [] });
      continue;
    }
    vectors.push({
      input: c,
      refused: `Character '${c}' is reserved and must be escaped with the preceding '\\'`,
    });
    vectors.push({ input: `\\${c}`, text: c, entities: [] });
  }
  return vectors;
}
