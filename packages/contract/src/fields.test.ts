import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { changePasswordSchema, profileFormSchema, updateProfileSchema } from './auth.js';
import { MESSAGES } from './fields.js';
import { createUserFormSchema, createUserSchema, updateUserSchema } from './users.js';

/** The messages of a failed parse, by field path. */
function messages(schema: z.ZodType, value: unknown): Record<string, string[]> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const byPath: Record<string, string[]> = {};
  for (const issue of result.error.issues) (byPath[issue.path.join('.')] ??= []).push(issue.message);
  return byPath;
}

const validUser = {
  username: 'jdoe',
  email: 'jdoe@example.com',
  name: 'Jane Doe',
  password: 'Long-enough-1',
  roles: [1],
};

describe('create user (spec section 5)', () => {
  it('accepts a valid user and trims text fields', () => {
    const parsed = createUserSchema.parse({ ...validUser, username: ' jdoe ', name: ' Jane Doe ' });
    expect(parsed).toEqual(validUser);
  });

  it.each([
    ['username', undefined, MESSAGES.usernameRequired],
    ['username', '', MESSAGES.usernameRequired],
    ['username', '  ', MESSAGES.usernameRequired],
    ['username', 'ab', MESSAGES.usernameMin],
    ['email', undefined, MESSAGES.emailRequired],
    ['email', '', MESSAGES.emailRequired],
    ['email', 'jdoe', MESSAGES.emailInvalid],
    ['email', 'jdoe@', MESSAGES.emailInvalid],
    ['email', 'jdoe@localhost', MESSAGES.emailInvalid],
    ['name', undefined, MESSAGES.nameRequired],
    ['name', '   ', MESSAGES.nameRequired],
    ['password', undefined, MESSAGES.passwordRequired],
    ['password', '', MESSAGES.passwordRequired],
    ['password', '1234567', MESSAGES.passwordMin],
    ['roles', [], MESSAGES.rolesRequired],
    ['roles', undefined, MESSAGES.rolesRequired],
  ])('%s = %j -> %j', (field, value, message) => {
    expect(messages(createUserSchema, { ...validUser, [field]: value })).toEqual({ [field]: [message] });
  });

  it('has the exact texts of the description', () => {
    expect(MESSAGES).toMatchObject({
      usernameRequired: 'Username is required',
      usernameMin: 'Username must be at least 3 characters',
      emailRequired: 'Email is required',
      emailInvalid: 'Invalid email format',
      nameRequired: 'Name is required',
      passwordRequired: 'Password is required',
      passwordMin: 'Password must be at least 8 characters',
      passwordsMismatch: 'Passwords do not match',
      rolesRequired: 'At least one role is required',
      currentPasswordRequired: 'Current password is required',
      newPasswordRequired: 'New password is required',
    });
  });

  it('accepts passwords from 8 to 128 characters', () => {
    expect(messages(createUserSchema, { ...validUser, password: 'x'.repeat(8) })).toEqual({});
    expect(messages(createUserSchema, { ...validUser, password: 'x'.repeat(128) })).toEqual({});
    expect(messages(createUserSchema, { ...validUser, password: 'x'.repeat(129) })).toEqual({
      password: [MESSAGES.passwordMax],
    });
  });

  it('the form also wants the confirmation to match', () => {
    const form = { ...validUser, confirmPassword: 'Long-enough-2' };
    expect(messages(createUserFormSchema, form)).toEqual({ confirmPassword: [MESSAGES.passwordsMismatch] });
    expect(messages(createUserFormSchema, { ...form, confirmPassword: validUser.password })).toEqual({});
  });
});

describe('edit user', () => {
  it('checks email, name and roles but not username or password', () => {
    expect(messages(updateUserSchema, { email: 'jdoe@example.com', name: 'Jane', roles: [2] })).toEqual({});
    expect(messages(updateUserSchema, { email: 'nope', name: '', roles: [] })).toEqual({
      email: [MESSAGES.emailInvalid],
      name: [MESSAGES.nameRequired],
      roles: [MESSAGES.rolesRequired],
    });
  });
});

describe('profile', () => {
  const base = {
    name: 'Jane',
    email: 'jdoe@example.com',
    changePassword: false,
    currentPassword: '',
    newPassword: '',
    confirmPassword: '',
  };

  it('ignores the password fields while the password section is closed', () => {
    expect(messages(profileFormSchema, base)).toEqual({});
  });

  it('checks name and email', () => {
    expect(messages(profileFormSchema, { ...base, name: '', email: '' })).toEqual({
      name: [MESSAGES.nameRequired],
      email: [MESSAGES.emailRequired],
    });
    expect(messages(profileFormSchema, { ...base, email: 'jane' })).toEqual({
      email: [MESSAGES.emailInvalid],
    });
  });

  it.each([
    [
      {},
      { currentPassword: [MESSAGES.currentPasswordRequired], newPassword: [MESSAGES.newPasswordRequired] },
    ],
    [
      { currentPassword: 'old-one', newPassword: 'short', confirmPassword: 'short' },
      { newPassword: [MESSAGES.passwordMin] },
    ],
    [
      { currentPassword: 'old-one', newPassword: 'Long-enough-1', confirmPassword: 'Long-enough-2' },
      { confirmPassword: [MESSAGES.passwordsMismatch] },
    ],
    [{ currentPassword: 'old-one', newPassword: 'Long-enough-1', confirmPassword: 'Long-enough-1' }, {}],
  ])('checks an open password section %j', (fields, expected) => {
    expect(messages(profileFormSchema, { ...base, changePassword: true, ...fields })).toEqual(expected);
  });

  it('the API accepts a partial profile change with the same rules', () => {
    expect(messages(updateProfileSchema, { name: 'Only the name' })).toEqual({});
    expect(messages(updateProfileSchema, { email: 'bad' })).toEqual({ email: [MESSAGES.emailInvalid] });
  });

  it('the change-password request needs the current password and a matching confirmation', () => {
    expect(
      messages(changePasswordSchema, {
        current_password: '',
        new_password: 'Long-enough-1',
        confirm_password: 'Long-enough-2',
      }),
    ).toEqual({
      current_password: [MESSAGES.currentPasswordRequired],
      confirm_password: [MESSAGES.passwordsMismatch],
    });
  });
});

describe('a name people read', () => {
  it('refuses an over-long name by its length alone, without scanning it for hidden characters', () => {
    const long = `${'a'.repeat(300)}\u200b`;
    expect(messages(updateProfileSchema, { name: long })).toEqual({ name: [MESSAGES.nameMax] });
    expect(messages(updateProfileSchema, { name: 'Jane\u200bDoe' }).name).toHaveLength(1);
  });
});
