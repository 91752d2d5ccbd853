import { cleanName, FIELD_LIMITS, telegramId, type TelegramId } from '../events.js';

/**
 * The chat, user and feature of a check, in the form Lumi keys them (events.ts: telegramId, cleanName), so
 * a check finds the limits of the very subjects the bot's reported calls count for. Without a regular
 * expression in the common cases: this runs on every check.
 */

/** Already in the form Lumi keys ids by: "0", or an optional minus and up to 20 digits not starting with 0. */
function isIdText(text: string): boolean {
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  const digits = text.length - i;
  if (digits < 1 || digits > 20) return false;
  if (text.charCodeAt(i) === 48) return text.length === 1;
  for (; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** A Telegram id as Lumi keys it (events.ts, telegramId), without a regular expression in the common cases. */
export function idText(id: TelegramId | undefined): string | undefined {
  if (typeof id === 'number') return Number.isSafeInteger(id) ? String(id) : undefined;
  if (typeof id === 'string' && isIdText(id)) return id;
  return telegramId(id);
}

/** How many cleaned feature names are remembered. */
const FEATURE_NAMES_KEPT = 1000;

/** Feature names as the events carry them (cleaned), remembered: bots use a handful of names. */
export class FeatureNames {
  readonly #names = new Map<string, string | undefined>();

  clean(name: string | undefined): string | undefined {
    if (typeof name !== 'string') return undefined;
    const known = this.#names.get(name);
    if (known !== undefined || this.#names.has(name)) return known;
    const cleaned = cleanName(name, FIELD_LIMITS.feature);
    if (this.#names.size >= FEATURE_NAMES_KEPT) this.#names.clear();
    this.#names.set(name, cleaned);
    return cleaned;
  }
}
