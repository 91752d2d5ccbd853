import { lineColumn, SLOT_PATTERN } from '@lumi/telegram-markup';

/**
 * Where in a template the text at a position of its rendered message was written, so that a problem
 * Telegram would have with the message (markup that does not parse) can be shown at its spot in the
 * editor. The renderer's output before escaping is the template's literal text with a marker for each
 * value (template-renderer.ts); a position inside a value points at the `{{…}}` that gave it, and one
 * inside literal text at that text in the template, looked for after the `{{…}}` before it.
 */

/** A position in a template, 1-based, as Handlebars' `loc` gives it (line 1-based, column 0-based). */
interface Loc {
  line: number;
  column: number;
}

export interface SlotSource {
  start: Loc;
  end: Loc;
}

/** The offset of a 1-based line and column in `text`. */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let current = 1; current < line; current += 1) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + column - 1, text.length);
}

/** Where `literal`'s character `at` was written in `content`, searching from `from`; null when not found. */
function locate(content: string, literal: string, at: number, from: number) {
  let found = content.indexOf(literal, from);
  if (found !== -1) return lineColumn(content, found + at);
  // A literal made of several pieces of the template (around a block): look for its line up to `at`.
  const lineStart = literal.lastIndexOf('\n', at - 1) + 1;
  const piece = literal.slice(lineStart, at + 1);
  if (piece.length === 0) return null;
  found = content.indexOf(piece, from);
  return found === -1 ? null : lineColumn(content, found + (at - lineStart));
}

/**
 * The template position of `offset` in the rendered message, made from `output` (the rendering with value
 * markers), the values as inserted (`inserted[i]` for marker i) and where each marker's `{{…}}` is.
 */
export function templatePosition(
  content: string,
  output: string,
  inserted: readonly string[],
  sources: readonly (SlotSource | undefined)[],
  offset: number,
): { line: number; column: number } | null {
  let outAt = 0;
  let renderedAt = 0;
  let searchFrom = 0;
  for (const match of output.matchAll(SLOT_PATTERN)) {
    const literal = output.slice(outAt, match.index);
    if (offset < renderedAt + literal.length) {
      return locate(content, literal, offset - renderedAt, searchFrom);
    }
    renderedAt += literal.length;
    const index = Number(match[1]);
    const value = inserted[index] ?? '';
    const source = sources[index];
    if (offset < renderedAt + value.length) {
      return source ? { line: source.start.line, column: source.start.column + 1 } : null;
    }
    renderedAt += value.length;
    if (source) searchFrom = offsetOf(content, source.end.line, source.end.column + 1);
    outAt = match.index + match[0].length;
  }
  const literal = output.slice(outAt);
  return locate(content, literal, Math.min(offset - renderedAt, literal.length), searchFrom);
}
