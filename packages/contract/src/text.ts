/**
 * Rules for text that apply to every field (docs/operators/security.md, "Bounded work"), written once here:
 * the server applies `findUnsafeText` to every request it validates, ingestion to each event, and the name
 * fields of the contract add `isVisibleName`.
 */

/**
 * C0 controls other than tab, line feed and carriage return, DEL and the C1 controls. No field needs them;
 * PostgreSQL cannot store NUL at all, and the others only hide or garble text.
 */
function isControl(code: number): boolean {
  return (code <= 0x1f && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f);
}

export const TEXT_MESSAGES = {
  nameHidden: 'Names cannot contain invisible characters, line breaks or text-direction controls',
} as const;

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Text from outside that is shown rather than refused (an OTLP span's name): its control characters and
 * lone surrogates replaced with U+FFFD, so it can be stored and shown.
 */
export function printableText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (
      code >= 0xd800 &&
      code <= 0xdbff &&
      text.charCodeAt(i + 1) >= 0xdc00 &&
      text.charCodeAt(i + 1) <= 0xdfff
    ) {
      out += text.slice(i, i + 2);
      i += 1;
    } else out += isControl(code) || (code >= 0xd800 && code <= 0xdfff) ? '\uFFFD' : text[i];
  }
  return out;
}

/**
 * Why a string cannot be stored as text, or null when it can: a control character, or half of a UTF-16
 * pair without the other half (stored, it would become U+FFFD, silently changing the text).
 */
export function unsafeTextReason(text: string): string | null {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (isControl(code)) return `Must not contain control characters (found ${codePoint(text[i]!)})`;
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) {
        return 'Must be valid Unicode text (found a lone surrogate)';
      }
      i += 1;
    }
  }
  return null;
}

export interface UnsafeText {
  /** Dotted path of the field, as in validation errors ('' for the value itself). */
  path: string;
  message: string;
}

/** A finding on its way up the value: the path is collected in reverse, only once something is found. */
interface Found {
  reversedPath: Array<string | number>;
  message: string;
}

function find(value: unknown): Found | null {
  if (typeof value === 'string') {
    const message = unsafeTextReason(value);
    return message ? { reversedPath: [], message } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = find(value[i]);
      if (found) {
        found.reversedPath.push(i);
        return found;
      }
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const keyMessage = unsafeTextReason(key);
      if (keyMessage) return { reversedPath: [key], message: `Field name: ${keyMessage}` };
      const found = find((value as Record<string, unknown>)[key]);
      if (found) {
        found.reversedPath.push(key);
        return found;
      }
    }
  }
  return null;
}

/**
 * The first string (or object key) in a parsed JSON value that cannot be stored as text. It runs on every
 * validated request, so a clean value costs a walk and nothing more.
 */
export function findUnsafeText(value: unknown): UnsafeText | null {
  const found = find(value);
  return found && { path: found.reversedPath.reverse().join('.'), message: found.message };
}

/**
 * Characters that change how a name looks without being seen, so `ad\u200Bmin` could pass for `admin`:
 * line breaks and tabs, the soft hyphen, bidirectional controls (Unicode TR 9: LRM, RLM, ALM, the
 * embeddings, overrides and isolates), zero-width characters and joiners, the word joiner and invisible
 * operators, the byte-order mark and the Hangul and Khmer fillers that render as nothing.
 */
const HIDDEN_IN_NAMES: Array<[number, number]> = [
  [0x09, 0x0a],
  [0x0d, 0x0d],
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x61c, 0x61c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180e, 0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0x3164, 0x3164],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
];

export function isVisibleName(name: string): boolean {
  for (let i = 0; i < name.length; i += 1) {
    const code = name.charCodeAt(i);
    if (HIDDEN_IN_NAMES.some(([from, to]) => code >= from && code <= to)) return false;
  }
  return true;
}

/**
 * The explicit directional formatting characters of Unicode TR 9 (the embeddings and overrides U+202A to
 * U+202E, the isolates U+2066 to U+2069): in a line of free text one of them makes what follows read in
 * another order than it was typed ("Trojan Source", CVE-2021-42574). Typed right-to-left text needs none of
 * them; the marks LRM, RLM and ALM stay allowed.
 */
function isDirectionControl(code: number): boolean {
  return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/** Why free text an operator writes cannot be kept as it is (a direction control in it), or null. */
export function directionControlReason(text: string): string | null {
  for (let i = 0; i < text.length; i += 1) {
    if (isDirectionControl(text.charCodeAt(i))) {
      return `Remove the text-direction control (found ${codePoint(text[i]!)}): it makes the text read in another order than it was written`;
    }
  }
  return null;
}

/**
 * A whole number with its thousands grouped the English way ("86,400"; any other number as `String` writes
 * it), for messages made when a module loads: `toLocaleString` there would load Intl's locale data before a
 * console screen's first paint.
 */
export function groupedNumber(value: number): string {
  if (!Number.isSafeInteger(value)) return String(value);
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
