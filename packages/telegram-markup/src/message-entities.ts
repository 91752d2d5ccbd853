import type { TelegramEntity, TelegramNode } from './entities.js';

/**
 * A message's entities as the Bot API lists them (https://core.telegram.org/bots/api#messageentity): flat,
 * with offsets and lengths in UTF-16 code units and each type's own fields, so a list can be sent as
 * sendMessage's `entities` without a parse mode.
 */
export type TelegramMessageEntity =
  | {
      type:
        | 'bold'
        | 'italic'
        | 'underline'
        | 'strikethrough'
        | 'spoiler'
        | 'code'
        | 'blockquote'
        | 'expandable_blockquote';
      offset: number;
      length: number;
    }
  | { type: 'pre'; offset: number; length: number; language?: string }
  | { type: 'text_link'; offset: number; length: number; url: string }
  | { type: 'text_mention'; offset: number; length: number; user: { id: number } }
  | { type: 'custom_emoji'; offset: number; length: number; custom_emoji_id: string }
  | { type: 'date_time'; offset: number; length: number; unix_time: number; date_time_format: string };

export type MessageEntityType = TelegramMessageEntity['type'];

/**
 * The order Telegram lists entities in: by offset, the longer first, and among entities over the same
 * characters the outer one first (TDLib's MessageEntity::get_type_priority, which the Bot API returns).
 */
const PRIORITY: Record<MessageEntityType, number> = {
  blockquote: 0,
  expandable_blockquote: 0,
  pre: 11,
  code: 20,
  date_time: 30,
  text_link: 49,
  text_mention: 49,
  bold: 90,
  italic: 91,
  underline: 92,
  strikethrough: 93,
  spoiler: 94,
  custom_emoji: 99,
};

const priority = (entity: TelegramMessageEntity) =>
  // A pre with a language (TDLib's PreCode) sorts just before one without.
  entity.type === 'pre' && entity.language !== undefined ? 10 : PRIORITY[entity.type];

export function sortEntities(entities: TelegramMessageEntity[]): TelegramMessageEntity[] {
  return entities.sort((a, b) => a.offset - b.offset || b.length - a.length || priority(a) - priority(b));
}

function flatEntity(node: TelegramEntity, offset: number, length: number): TelegramMessageEntity {
  switch (node.type) {
    case 'link':
      return { type: 'text_link', offset, length, url: node.url };
    case 'text_mention':
      return { type: 'text_mention', offset, length, user: { id: node.userId } };
    case 'custom_emoji':
      return { type: 'custom_emoji', offset, length, custom_emoji_id: node.customEmojiId };
    case 'date_time':
      return { type: 'date_time', offset, length, unix_time: node.unixTime, date_time_format: node.format };
    case 'pre':
      return node.language === null
        ? { type: 'pre', offset, length }
        : { type: 'pre', offset, length, language: node.language };
    case 'blockquote':
      return { type: node.expandable ? 'expandable_blockquote' : 'blockquote', offset, length };
    default:
      return { type: node.type, offset, length };
  }
}

/** The flat, sorted entity list of a tree; an entity without text has no place in it, as in Telegram's. */
export function toMessageEntities(nodes: readonly TelegramNode[]): TelegramMessageEntity[] {
  const entities: TelegramMessageEntity[] = [];
  let offset = 0;
  // Walked with a stack of its own rather than recursion, so no nesting is too deep to list.
  const stack: Array<{
    list: readonly TelegramNode[];
    next: number;
    entity?: TelegramEntity;
    start: number;
  }> = [{ list: nodes, next: 0, start: 0 }];
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    const node = frame.list[frame.next];
    frame.next += 1;
    if (node === undefined) {
      stack.pop();
      if (frame.entity && offset > frame.start) {
        entities.push(flatEntity(frame.entity, frame.start, offset - frame.start));
      }
    } else if (node.type === 'text') {
      offset += node.text.length;
    } else {
      stack.push({ list: node.children, next: 0, entity: node, start: offset });
    }
  }
  return sortEntities(entities);
}
