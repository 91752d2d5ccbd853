/**
 * A message as a tree of formatting entities (https://core.telegram.org/bots/api#messageentity): the
 * parsers build it while they read the markup, the console's preview draws it. A tree rather than
 * Telegram's flat offset list, because that is what a renderer walks; the text of its leaves, joined, is
 * the text Telegram keeps after entity parsing. `toMessageEntities` turns it into the flat list.
 */
export type TelegramNode =
  | { type: 'text'; text: string }
  | { type: 'bold' | 'italic' | 'underline' | 'strikethrough' | 'spoiler' | 'code'; children: TelegramNode[] }
  /** A custom emoji drawn over its text; the id is the Bot API's custom_emoji_id, a decimal string. */
  | { type: 'custom_emoji'; customEmojiId: string; children: TelegramNode[] }
  /** A text_link, with the URL as Telegram normalises it ('telegram.org' becomes 'http://telegram.org/'). */
  | { type: 'link'; url: string; children: TelegramNode[] }
  /** A text_mention: a link to tg://user?id=… becomes a mention of that user. */
  | { type: 'text_mention'; userId: number; children: TelegramNode[] }
  /**
   * A date_time: a point in time each reader sees in their own zone and language. `format` is the Bot
   * API's date_time_format: 'r' (relative) or a combination of 'w' (day of the week), 'd'/'D' (short or
   * long date) and 't'/'T' (short or long time); empty to show the text as written.
   */
  | { type: 'date_time'; unixTime: number; format: string; children: TelegramNode[] }
  | { type: 'pre'; language: string | null; children: TelegramNode[] }
  | { type: 'blockquote'; expandable: boolean; children: TelegramNode[] };

export type TelegramEntity = Exclude<TelegramNode, { type: 'text' }>;
export type EntityType = TelegramEntity['type'];

/** An open entity: the node, where its text starts and what its parser needs to know to close it. */
export interface OpenEntity<Info> {
  node: TelegramEntity;
  start: number;
  info: Info;
}

/**
 * Collects the text and the entities while a parser walks a message; entities nest like a stack. When an
 * entity closes, the parser keeps it, replaces it (a link that turns out to be a mention) or drops it and
 * keeps its text, as Telegram drops an empty entity or a link to something that is not a URL.
 */
export class EntityTree<Info> {
  readonly nodes: TelegramNode[] = [];
  /** The text so far, without markup. */
  plainText = '';
  private readonly stack: Array<OpenEntity<Info>> = [];
  /** How many entities of each type are open, so asking costs nothing however deep the nesting. */
  private readonly openTypes = new Map<EntityType, number>();

  private get children(): TelegramNode[] {
    return this.stack.at(-1)?.node.children ?? this.nodes;
  }

  text(value: string) {
    if (!value) return;
    this.plainText += value;
    const last = this.children.at(-1);
    if (last?.type === 'text') last.text += value;
    else this.children.push({ type: 'text', text: value });
  }

  open(node: TelegramEntity, info: Info) {
    this.children.push(node);
    this.stack.push({ node, start: this.plainText.length, info });
    this.openTypes.set(node.type, (this.openTypes.get(node.type) ?? 0) + 1);
  }

  /** The innermost open entity. */
  get top(): OpenEntity<Info> | undefined {
    return this.stack.at(-1);
  }

  /** Whether the innermost open entity has no text yet. */
  get topIsEmpty(): boolean {
    return this.stack.at(-1)?.start === this.plainText.length;
  }

  /**
   * Closes the innermost entity: keeps it, replaces it by `replacement` (which takes over its children)
   * or, with null, drops it and keeps its children in its place.
   */
  close(replacement?: TelegramEntity | null) {
    const closed = this.stack.pop();
    if (!closed) return;
    this.openTypes.set(closed.node.type, this.openTypes.get(closed.node.type)! - 1);
    const siblings = this.children;
    if (replacement === undefined) return;
    siblings.pop();
    if (replacement) {
      replacement.children = closed.node.children;
      siblings.push(replacement);
      return;
    }
    for (const child of closed.node.children) {
      const last = siblings.at(-1);
      if (child.type === 'text' && last?.type === 'text') last.text += child.text;
      else siblings.push(child);
    }
  }

  isOpen(type: EntityType): boolean {
    return (this.openTypes.get(type) ?? 0) > 0;
  }
}
