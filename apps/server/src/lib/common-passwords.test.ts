import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './common-passwords.js';

describe('isCommonPassword', () => {
  it.each(['password123', 'password', '123456', 'qwerty', 'iloveyou', 'letmein'])(
    'refuses the common password %j',
    (password) => {
      expect(isCommonPassword(password)).toBe(true);
    },
  );

  it.each(['PASSWORD123', 'Password123', 'QWERTY'])('ignores case: %j is common too', (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it.each(['Correct-horse-battery-9', 'Seeded-admin-pass-42', 'x7#Lq!mZ2v'])('accepts %j', (password) => {
    expect(isCommonPassword(password)).toBe(false);
  });
});
