import { z } from 'zod';
import { isVisibleName, TEXT_MESSAGES } from './text.js';

/** Messages of spec section 5, written once and used by the server and the console forms. */
export const MESSAGES = {
  usernameRequired: 'Username is required',
  usernameMin: 'Username must be at least 3 characters',
  usernameMax: 'Username must be at most 64 characters',
  usernameChars: 'Username may contain only letters, digits, dots, dashes and underscores',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  nameRequired: 'Name is required',
  nameMax: 'Name must be at most 200 characters',
  passwordRequired: 'Password is required',
  passwordMin: 'Password must be at least 8 characters',
  passwordMax: 'Password must be at most 128 characters',
  passwordsMismatch: 'Passwords do not match',
  currentPasswordRequired: 'Current password is required',
  newPasswordRequired: 'New password is required',
  rolesRequired: 'At least one role is required',
  passwordCommon: 'This password is too common. Choose one that is harder to guess.',
} as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const USERNAME_MIN = 3;

/** A string that reports `required` both when missing and when blank. */
export function requiredString(required: string) {
  return z
    .string({
      error: (issue) => (issue.input === undefined || issue.input === null ? required : 'Must be text'),
    })
    .trim()
    .min(1, { error: required, abort: true });
}

export const usernameField = requiredString(MESSAGES.usernameRequired)
  .min(USERNAME_MIN, { error: MESSAGES.usernameMin, abort: true })
  .max(64, MESSAGES.usernameMax)
  .regex(/^[A-Za-z0-9._-]+$/, MESSAGES.usernameChars);

export const emailField = requiredString(MESSAGES.emailRequired)
  .max(254, MESSAGES.emailInvalid)
  .pipe(z.email({ error: MESSAGES.emailInvalid }));

/**
 * A name people read: nothing invisible may change how it looks (text.ts). The scan runs only on a name
 * that passed its other checks, so an over-long one is refused by its length without being read through.
 */
export function visibleName<T extends z.ZodType<string>>(schema: T) {
  return schema.refine(isVisibleName, {
    error: TEXT_MESSAGES.nameHidden,
    when: (payload) => payload.issues.length === 0,
  });
}

/** A required name people read (a user's, a rule's, a channel's): at most `max` characters, all visible. */
export function requiredName(required: string, max: number, maxMessage: string) {
  return visibleName(requiredString(required).max(max, maxMessage));
}

export const nameField = requiredName(MESSAGES.nameRequired, 200, MESSAGES.nameMax);

/** Password rules shared by create-user, change-password and the forms (OWASP ASVS 5.0: 8 to 128). */
export function passwordField(required: string) {
  return z
    .string({ error: () => required })
    .min(1, { error: required, abort: true })
    .min(PASSWORD_MIN, { error: MESSAGES.passwordMin, abort: true })
    .max(PASSWORD_MAX, MESSAGES.passwordMax);
}

/** Keys are PostgreSQL `integer` (serial) columns: a larger id is no id at all, not a database error. */
export const ID_MAX = 2_147_483_647;
export const idSchema = z.number().int().positive().max(ID_MAX);

/**
 * A whole number written in a path or a query string. Only canonical decimal is read, so `0x1`, `1e0`,
 * `+1`, `01` and ` 1` are refused instead of all reaching record 1 as Number() would have it.
 */
export function wholeNumberText(message = 'Must be a whole number such as 42') {
  return z
    .string({ error: message })
    .max(16, message)
    .regex(/^(0|[1-9][0-9]*)$/, message)
    .transform(Number);
}

/** A record id in a path or a query string. */
export const idText = wholeNumberText('Must be an id: a whole number such as 42').pipe(idSchema);

export const idParamSchema = z.object({ id: idText });
