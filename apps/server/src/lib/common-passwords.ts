import { dictionary } from '@zxcvbn-ts/language-common';

let common: Set<string> | undefined;

/**
 * OWASP ASVS 5.0 (V6.2.4): refuse passwords found in a list of the most common ones.
 * The list is zxcvbn-ts' common-passwords dictionary (about 49,000 entries), compared without case.
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => String(p).toLowerCase()));
  return common.has(password.toLowerCase());
}
