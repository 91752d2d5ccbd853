import { describe, expect, it } from 'vitest';
import { generatePassword, PasswordHasher, PRODUCTION_COST } from './password.js';

const cheap = new PasswordHasher({ N: 2 ** 10, r: 8, p: 1 });

describe('PasswordHasher', () => {
  it('stores the scheme, the parameters, a salt and the key', async () => {
    const stored = await cheap.hash('Correct-horse-9');
    const [scheme, n, r, p, salt, key] = stored.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '1024', '8', '1']);
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64')).toHaveLength(32);
    expect(stored).not.toContain('Correct-horse-9');
  });

  it('salts every hash', async () => {
    const [a, b] = await Promise.all([cheap.hash('Same-password-1'), cheap.hash('Same-password-1')]);
    expect(a).not.toBe(b);
    expect(await cheap.verify('Same-password-1', a)).toBe(true);
    expect(await cheap.verify('Same-password-1', b)).toBe(true);
  });

  it.each([
    ['the right password', 'Correct-horse-9', true],
    ['a wrong password', 'Correct-horse-8', false],
    ['a different case', 'correct-horse-9', false],
    ['an empty password', '', false],
    ['the password with a trailing space', 'Correct-horse-9 ', false],
  ])('verifies %s', async (_label, attempt, expected) => {
    const stored = await cheap.hash('Correct-horse-9');
    expect(await cheap.verify(attempt, stored)).toBe(expected);
  });

  it('treats canonically equal Unicode spellings as the same password', async () => {
    const composed = 'Caf\u00e9-au-lait-1';
    const decomposed = 'Cafe\u0301-au-lait-1';
    expect(await cheap.verify(decomposed, await cheap.hash(composed))).toBe(true);
  });

  it('verifies a hash made with other parameters, using the parameters stored with it', async () => {
    const older = await new PasswordHasher({ N: 2 ** 11, r: 8, p: 1 }).hash('Moved-on-pass-1');
    expect(older.split('$').slice(1, 4)).toEqual(['2048', '8', '1']);
    expect(await cheap.verify('Moved-on-pass-1', older)).toBe(true);
    expect(await cheap.verify('Moved-on-pass-2', older)).toBe(false);
  });

  it.each(['', 'not-a-hash', 'bcrypt$10$abc$def$ghi$jkl', 'scrypt$1024$8$1$$'])(
    'refuses a stored value that is not a scrypt hash: %j',
    async (stored) => {
      expect(await cheap.verify('anything', stored)).toBe(false);
    },
  );

  it('answers false for the dummy check that keeps unknown usernames from being timed', async () => {
    expect(await cheap.verifyDummy('Correct-horse-9')).toBe(false);
  });

  it('uses scrypt with N = 2^17, r = 8, p = 1 by default (OWASP)', async () => {
    expect(PRODUCTION_COST).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    const stored = await new PasswordHasher().hash('Production-pass-1');
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '131072', '8', '1']);
    expect(await cheap.verify('Production-pass-1', stored)).toBe(true);
  });
});

describe('generatePassword', () => {
  it('makes long, URL-safe, unpredictable passwords', () => {
    const passwords = Array.from({ length: 50 }, generatePassword);
    for (const password of passwords) expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(new Set(passwords).size).toBe(50);
  });
});
