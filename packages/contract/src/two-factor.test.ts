import { describe, expect, it } from 'vitest';
import {
  recoveryCodeField,
  totpCodeField,
  twoFactorDisableRequestSchema,
  twoFactorVerifyRequestSchema,
} from './two-factor.js';

describe('two-factor fields', () => {
  it.each([
    ['123456', '123456'],
    [' 123 456 ', '123456'],
  ])('reads the code %j as %j', (input, code) => {
    expect(totpCodeField.parse(input)).toBe(code);
  });

  it.each(['12345', '1234567', '12 3456', '１２３４５６', '123456\u0000', 'abcdef', ''])(
    'refuses the code %j',
    (input) => {
      expect(totpCodeField.safeParse(input).success).toBe(false);
    },
  );

  it.each([
    ['abcde-23456', 'abcde23456'],
    ['ABCDE 23456', 'abcde23456'],
  ])('reads the recovery code %j as %j', (input, code) => {
    expect(recoveryCodeField.parse(input)).toBe(code);
  });

  it.each(['abcde-2345', 'abcde-234567', 'abcde_23456', "abcde'23456", 'x'.repeat(41)])(
    'refuses the recovery code %j',
    (input) => {
      expect(recoveryCodeField.safeParse(input).success).toBe(false);
    },
  );

  it('needs exactly one second factor', () => {
    const challenge = 'a'.repeat(43);
    expect(twoFactorVerifyRequestSchema.safeParse({ challenge }).success).toBe(false);
    expect(
      twoFactorVerifyRequestSchema.safeParse({ challenge, code: '123456', recovery_code: 'abcde-23456' })
        .success,
    ).toBe(false);
    expect(twoFactorVerifyRequestSchema.safeParse({ challenge, code: '123456' }).success).toBe(true);
    expect(
      twoFactorDisableRequestSchema.safeParse({ password: 'x', recovery_code: 'abcde-23456' }).success,
    ).toBe(true);
    expect(twoFactorVerifyRequestSchema.safeParse({ challenge: 'short', code: '123456' }).success).toBe(
      false,
    );
  });
});
