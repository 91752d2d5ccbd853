import { recoveryCodeField, totpCodeField } from '@lumi/contract';
import { z } from 'zod';

/** Which second factor a form asks for: a code from the authenticator app or a one-time recovery code. */
export type SecondFactorMode = 'code' | 'recovery_code';

/** The form's one factor field, checked with the contract's own field so its messages match the server's. */
export function secondFactorField(mode: SecondFactorMode) {
  return mode === 'code' ? totpCodeField : recoveryCodeField;
}

/** The request's part for the factor: `{code}` or `{recovery_code}`, never both (the contract refuses both). */
export function secondFactorBody(mode: SecondFactorMode, factor: string) {
  return mode === 'code' ? { code: factor } : { recovery_code: factor };
}

/** A form with just the factor. */
export function secondFactorSchema(mode: SecondFactorMode) {
  return z.object({ factor: secondFactorField(mode) });
}

/** Props for the factor input: digits for a code (and the browser's one-time-code autofill), text otherwise. */
export function secondFactorInputProps(mode: SecondFactorMode) {
  return mode === 'code'
    ? ({ inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 7 } as const)
    : ({ inputMode: 'text', autoComplete: 'off', autoCapitalize: 'none', spellCheck: false } as const);
}
