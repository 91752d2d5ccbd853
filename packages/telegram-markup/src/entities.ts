/**
 * A message as a tree of formatting entities (https://core.telegram.org/bots/api#messageentity): the
 * parsers build it while they read the markup, the console's preview draws it. A tree rather than
 * Telegram's flat offset list, because that is what a renderer walks; the text of its leaves, joined, is
 * the text Telegram keeps after entity parsing.
 */
export type TelegramNode =
  | { type: 'text'; text: string }
  | {
      type: 'bold' | 'italic' | 'underline' | 'strikethrough' | 'spoiler' | 'code' | 'custom_emoji';
      children: TelegramNode[];
    }
  | { type: 'link'; url: string; children: TelegramNode[] }
  | { type: 'pre'; language: string | null; children: TelegramNode[] }
  | { type: 'blockquote'; expandable: boolean; children: TelegramNode[] };

export type TelegramEntity = Exclude<TelegramNode, { type: 'text' }>;
export type EntityType = TelegramEntity['type'];

/** Collects the text and the entities while a parser walks a message; entities nest like a stack. */
export class EntityTree {
  readonly nodes: TelegramNode[] = [];
  /** The text so far, without markup. */
  plainText = '';
  private readonly stack: TelegramEntity[] = [];

  private get children(): TelegramNode[] {
    return this.stack.at(-1)?.children ?? this.nodes;
  }

  text(value: string) {
    if (!value) return;
    this.plainText += value;
    const last = this.children.at(-1);
    if (last?.type === 'text') last.text += value;
    else this.children.push({ type: 'text', text: value });
  }

  open(entity: TelegramEntity) {
    this.children.push(entity);
    this.stack.push(entity);
  }

  close() {
    this.stack.pop();
  }

  /** The innermost open entity. */
  get top(): TelegramEntity | undefined {
    return this.stack.at(-1);
  }

  isOpen(type: EntityType): boolean {
    return this.stack.some((entity) => entity.type === type);
  }

  /** The innermost open entity that is not of the given type. */
  innermostExcept(type: EntityType): TelegramEntity | undefined {
    return this.stack.findLast((entity) => entity.type !== type);
  }
}
