/**
 * A Telegram message as a tree of formatting entities
 * (https://core.telegram.org/bots/api#messageentity), which the preview turns into React elements.
 * No maintained package parses Telegram's HTML and Markdown flavours into entities in the browser
 * (the known ones only build formatted text), so the three small parsers beside this file do.
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

export type TelegramContainer = Exclude<TelegramNode, { type: 'text' }>;

export type ParsedMessage = { ok: true; nodes: TelegramNode[] } | { ok: false; error: string };

/** Collects text and entities while a parser walks the message; entities nest like a stack. */
export class TelegramTreeBuilder {
  private readonly root: TelegramNode[] = [];
  private readonly stack: TelegramContainer[] = [];

  private get children(): TelegramNode[] {
    return this.stack.at(-1)?.children ?? this.root;
  }

  text(value: string) {
    if (!value) return;
    const last = this.children.at(-1);
    if (last?.type === 'text') last.text += value;
    else this.children.push({ type: 'text', text: value });
  }

  open(node: TelegramContainer) {
    this.children.push(node);
    this.stack.push(node);
  }

  close() {
    this.stack.pop();
  }

  /** The innermost open entity. */
  get top(): TelegramContainer | undefined {
    return this.stack.at(-1);
  }

  isOpen(type: TelegramContainer['type']): boolean {
    return this.stack.some((node) => node.type === type);
  }

  result(): ParsedMessage {
    return { ok: true, nodes: this.root };
  }
}
