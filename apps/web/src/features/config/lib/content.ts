import type { ConfigContent, ConfigItem } from '@lumi/contract';

/** How the editor treats content: a JSON object, or plain text (spec section 4). */
export type ContentMode = 'json' | 'text';

/** Spec section 9: the list shows content cut at 50 characters. */
export const CONTENT_PREVIEW_LENGTH = 50;

/** Spec section 4: JSON mode for object content, text mode otherwise. */
export function defaultContentMode(content: ConfigContent): ContentMode {
  return typeof content === 'string' ? 'text' : 'json';
}

/**
 * The mode a new item starts in: its domain's. A domain whose items are mostly JSON objects (feature
 * flags, moods) starts in JSON mode; any other, an empty one included, in text mode as spec section 4 has it.
 */
export function newItemContentMode(items: readonly Pick<ConfigItem, 'content'>[]): ContentMode {
  const objects = items.filter((item) => defaultContentMode(item.content) === 'json').length;
  return objects * 2 > items.length ? 'json' : 'text';
}

/** The content as the editor shows it: objects pretty-printed, text as it is. */
export function contentToText(content: ConfigContent): string {
  return typeof content === 'string' ? content : JSON.stringify(content, null, 2);
}

/** The object a JSON text describes, or null when it does not parse or is not an object. */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** One line of content for the list: objects as compact JSON, cut at 50 characters. */
export function contentPreview(content: ConfigContent): string {
  const text = (typeof content === 'string' ? content : JSON.stringify(content)).replace(/\s+/g, ' ').trim();
  return text.length > CONTENT_PREVIEW_LENGTH ? `${text.slice(0, CONTENT_PREVIEW_LENGTH)}...` : text;
}
