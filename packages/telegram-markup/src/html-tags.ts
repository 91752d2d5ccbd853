import { asciiLower, isAsciiAlnum, isSpace, leadingInt32 } from './links.js';
import { passSlot, type MarkupOptions } from './markup.js';

/**
 * The lexical side of Telegram's HTML parse mode (https://core.telegram.org/bots/api#html-style), read as
 * Telegram's parser reads it: character references, and start tags with their attributes.
 */

const SUPPORTED_TAGS = new Set([
  'a',
  'b',
  'strong',
  'i',
  'em',
  's',
  'strike',
  'del',
  'u',
  'ins',
  'tg-spoiler',
  'tg-emoji',
  'tg-time',
  'span',
  'pre',
  'code',
  'blockquote',
]);
const SUPPORTED_LIST =
  '<b>, <strong>, <i>, <em>, <u>, <ins>, <s>, <strike>, <del>, <span class="tg-spoiler">, <tg-spoiler>, <a href>, <tg-emoji>, <tg-time>, <code>, <pre>, <blockquote>';

const NAMED_REFERENCES: Record<string, number> = { lt: 0x3c, gt: 0x3e, amp: 0x26, quot: 0x22 };

/**
 * The character a reference at `i` stands for and where the text after it starts, or null when Telegram
 * shows the '&' as written: only &lt; &gt; &amp; &quot; and numeric references below U+10FFFF are read,
 * in at most 9 characters, and the ';' may be left out ('&lt🏟' is '<🏟'). The code may be half of a
 * surrogate pair, which Telegram refuses once the whole text is read.
 */
export function decodeCharacterReference(input: string, i: number): { code: number; end: number } | null {
  let end = i + 1;
  let code = 0;
  if (input[i + 1] === '#') {
    const hex = input[i + 2] === 'x';
    end += hex ? 2 : 1;
    const digit = hex ? /[0-9a-fA-F]/ : /[0-9]/;
    while (end < input.length && digit.test(input[end]!)) {
      if (end - i < 10) code = code * (hex ? 16 : 10) + parseInt(input[end]!, 16);
      end += 1;
    }
    if (code === 0 || code >= 0x10ffff || end - i >= 10) return null;
  } else {
    while (end < input.length && /[A-Za-z]/.test(input[end]!)) end += 1;
    code = NAMED_REFERENCES[input.slice(i + 1, end)] ?? 0;
    if (code === 0) return null;
  }
  return { code, end: input[end] === ';' ? end + 1 : end };
}

export const isSurrogate = (code: number) => code >= 0xd800 && code <= 0xdfff;

export interface StartTag {
  /** The tag name in lower case. */
  name: string;
  /**
   * What Telegram keeps of the attributes: a's href, the language of code's class="language-…", the
   * class of span after 'tg-', tg-emoji's emoji-id, tg-time's format, '1' for an expandable blockquote.
   */
  argument: string;
  /** tg-time's unix attribute. */
  unix: number;
  /** Where the text after the '>' starts. */
  end: number;
}

export type TagError = { message: string; offset: number };

/** The attribute of a tag that Telegram keeps, as `argument` or `unix`. */
function keep(tag: StartTag, attribute: string, value: string) {
  if (tag.name === 'a' && attribute === 'href') tag.argument = value;
  else if (tag.name === 'code' && attribute === 'class' && value.startsWith('language-'))
    tag.argument = value.slice('language-'.length);
  else if (tag.name === 'span' && attribute === 'class' && value.startsWith('tg-'))
    tag.argument = value.slice('tg-'.length);
  else if (tag.name === 'tg-emoji' && attribute === 'emoji-id') tag.argument = value;
  else if (tag.name === 'blockquote' && attribute === 'expandable') tag.argument = '1';
  else if (tag.name === 'tg-time' && attribute === 'unix') tag.unix = leadingInt32(value);
  else if (tag.name === 'tg-time' && attribute === 'format') tag.argument = value;
}

/**
 * The start tag at `start` (a '<' not followed by '/'). Attribute names are case-sensitive; a value is
 * a quoted string, whose character references are read, or a name token of letters, digits, '.' and '-',
 * which is read in lower case.
 */
export function readStartTag(input: string, start: number, options: MarkupOptions): StartTag | TagError {
  const at = (j: number) => input[j] ?? '\0';
  const unclosed = (name: string) => ({
    message: `The tag <${name}> is not closed with '>'`,
    offset: start,
  });
  let j = start + 1;
  while (!isSpace(at(j)) && at(j) !== '>') j += 1;
  const name = asciiLower(input.slice(start + 1, j));
  if (at(j) === '\0') return unclosed(name);
  if (!name) return { message: "A '<' that is not part of a tag must be written as &lt;", offset: start };
  if (!SUPPORTED_TAGS.has(name)) {
    const shown = name.replace(/\/$/, '');
    const hint = shown === 'br' ? ' (write a line break instead of <br>)' : '';
    return {
      message: `Unsupported tag <${shown}>${hint}. Telegram supports ${SUPPORTED_LIST}`,
      offset: start,
    };
  }

  const tag: StartTag = { name, argument: '', unix: 0, end: j };
  const skipSpace = () => {
    while (at(j) !== '\0' && isSpace(at(j))) j += 1;
  };
  while (at(j) !== '>') {
    skipSpace();
    if (at(j) === '>') break;
    const nameStart = j;
    while (!isSpace(at(j)) && !'=>/"\''.includes(at(j))) j += 1;
    const attribute = input.slice(nameStart, j);
    if (!attribute) {
      const selfClosing =
        at(j) === '/' ? `; Telegram does not accept self-closing tags such as <${name}/>` : '';
      return { message: `An attribute of <${name}> has no name${selfClosing}`, offset: start };
    }
    skipSpace();
    if (at(j) !== '=') {
      if (at(j) === '\0') return unclosed(name);
      keep(tag, attribute, '');
      continue;
    }
    j += 1;
    skipSpace();
    if (at(j) === '\0') return unclosed(name);
    let value = '';
    if (at(j) !== '"' && at(j) !== "'") {
      const tokenStart = j;
      for (;;) {
        const afterSlot = passSlot(input, j, 'attribute', options);
        if (afterSlot !== null) j = afterSlot;
        else if (isAsciiAlnum(at(j)) || at(j) === '.' || at(j) === '-') j += 1;
        else break;
      }
      value = asciiLower(input.slice(tokenStart, j));
      if (!isSpace(at(j)) && at(j) !== '>') {
        return {
          message: `The value of ${attribute}= in <${name}> must be quoted: only letters, digits, '.' and '-' may go unquoted`,
          offset: tokenStart,
        };
      }
    } else {
      const quote = at(j);
      j += 1;
      while (at(j) !== quote && at(j) !== '\0') {
        const afterSlot = passSlot(input, j, 'attribute', options);
        if (afterSlot !== null) {
          value += input.slice(j, afterSlot);
          j = afterSlot;
          continue;
        }
        const reference = at(j) === '&' ? decodeCharacterReference(input, j) : null;
        value += reference ? String.fromCodePoint(reference.code) : at(j);
        j = reference ? reference.end : j + 1;
      }
      if (at(j) === quote) j += 1;
    }
    if (at(j) === '\0') return unclosed(name);
    keep(tag, attribute, value);
  }
  tag.end = j + 1;
  return tag;
}
