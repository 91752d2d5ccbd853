import { z } from 'zod';
import { loginResponseSchema } from './auth.js';
import { MESSAGES, passwordField } from './fields.js';

/**
 * Two-factor sign-in with a time-based one-time password (RFC 6238; docs/operators/security.md,
 * "Two-factor sign-in").
 */
export const TWO_FACTOR_MESSAGES = {
  codeRequired: 'Enter the 6-digit code from your authenticator app',
  codeFormat: 'The code is 6 digits, such as 123 456',
  recoveryCodeFormat: 'A recovery code is 10 letters and digits, such as abcde-23456',
  oneFactor: 'Enter either a code from your authenticator app or a recovery code, not both',
  challengeFormat: 'The sign-in challenge is not valid; sign in again',
  temporaryPasswordRequired: 'Temporary password is required',
} as const;

/** How many one-time recovery codes enabling two-factor sign-in hands out. */
export const RECOVERY_CODE_COUNT = 10;
/** How long the challenge of a sign-in's second step lasts. */
export const TWO_FACTOR_CHALLENGE_SECONDS = 5 * 60;

/** A 6-digit code; a space in the middle (as authenticator apps show it) is allowed and dropped. */
export const totpCodeField = z
  .string({ error: TWO_FACTOR_MESSAGES.codeRequired })
  .trim()
  .min(1, { error: TWO_FACTOR_MESSAGES.codeRequired, abort: true })
  .regex(/^\d{3} ?\d{3}$/, TWO_FACTOR_MESSAGES.codeFormat)
  .transform((code) => code.replace(' ', ''));

/** A recovery code as shown (`abcde-23456`); case, spaces and dashes do not matter. */
export const recoveryCodeField = z
  .string({ error: TWO_FACTOR_MESSAGES.recoveryCodeFormat })
  .trim()
  .max(40, TWO_FACTOR_MESSAGES.recoveryCodeFormat)
  .transform((code) => code.replace(/[\s-]/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, TWO_FACTOR_MESSAGES.recoveryCodeFormat));

/** GET /auth/2fa: the signed-in user's two-factor state. */
export const twoFactorStatusSchema = z
  .object({
    enabled: z.boolean(),
    /** When it was turned on; null while off. */
    enabled_at: z.string().nullable(),
    /** A setup was started and awaits its first code. */
    pending: z.boolean(),
    /** Unused recovery codes left (0 while off). */
    recovery_codes_left: z.number().int(),
    /** One of the user's roles requires two-factor sign-in: it cannot be turned off. */
    required: z.boolean(),
  })
  .meta({ id: 'TwoFactorStatus' });
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** POST /auth/2fa/setup: a new secret, pending until confirmed with a code; never shown again after enabling. */
export const twoFactorSetupResponseSchema = z
  .object({
    /** Base32, for typing into an authenticator app. */
    secret: z.string(),
    /** `otpauth://totp/…` for the QR code (rendered by the console itself). */
    otpauth_url: z.string(),
  })
  .meta({ id: 'TwoFactorSetup' });
export type TwoFactorSetupResponse = z.infer<typeof twoFactorSetupResponseSchema>;

export const twoFactorEnableRequestSchema = z.object({ code: totpCodeField });
export type TwoFactorEnableRequest = z.input<typeof twoFactorEnableRequestSchema>;

export const twoFactorEnableResponseSchema = z
  .object({ recovery_codes: z.array(z.string()).length(RECOVERY_CODE_COUNT) })
  .meta({ id: 'TwoFactorRecoveryCodes' });
export type TwoFactorEnableResponse = z.infer<typeof twoFactorEnableResponseSchema>;

/** A second factor: exactly one of a code from the app and a recovery code. */
const secondFactorFields = {
  code: totpCodeField.optional(),
  recovery_code: recoveryCodeField.optional(),
};
function exactlyOneFactor(value: { code?: string; recovery_code?: string }, ctx: z.RefinementCtx) {
  const given = (value.code !== undefined ? 1 : 0) + (value.recovery_code !== undefined ? 1 : 0);
  if (given === 1) return;
  ctx.addIssue({
    code: 'custom',
    path: ['code'],
    message: given === 0 ? TWO_FACTOR_MESSAGES.codeRequired : TWO_FACTOR_MESSAGES.oneFactor,
  });
}

export const twoFactorDisableRequestSchema = z
  .object({
    password: z.string({ error: MESSAGES.passwordRequired }).min(1, MESSAGES.passwordRequired).max(1024),
    ...secondFactorFields,
  })
  .superRefine(exactlyOneFactor);
export type TwoFactorDisableRequest = z.input<typeof twoFactorDisableRequestSchema>;

/** The sign-in answer to a user with two-factor sign-in: no token yet, a challenge for the second step. */
export const twoFactorChallengeResponseSchema = z
  .object({
    two_factor_required: z.literal(true),
    challenge: z.string(),
    /** Seconds the challenge stays valid. */
    expires_in: z.number().int(),
  })
  .meta({ id: 'TwoFactorChallenge' });
export type TwoFactorChallengeResponse = z.infer<typeof twoFactorChallengeResponseSchema>;

/** POST /auth/login answers either tokens or, for a user with two-factor sign-in, a challenge. */
export const signInResponseSchema = z.union([loginResponseSchema, twoFactorChallengeResponseSchema]);
export type SignInResponse = z.infer<typeof signInResponseSchema>;

export const twoFactorVerifyRequestSchema = z
  .object({
    challenge: z
      .string({ error: TWO_FACTOR_MESSAGES.challengeFormat })
      .regex(/^[A-Za-z0-9_-]{20,100}$/, TWO_FACTOR_MESSAGES.challengeFormat),
    ...secondFactorFields,
    /** As at sign-in: clients that are not browsers receive the refresh token in the body. */
    refresh_token_in_body: z.boolean().optional(),
  })
  .superRefine(exactlyOneFactor);
export type TwoFactorVerifyRequest = z.input<typeof twoFactorVerifyRequestSchema>;

/** POST /users/{id}/password-reset: the user must change it at their next sign-in. */
export const passwordResetRequestSchema = z.object({
  temporary_password: passwordField(TWO_FACTOR_MESSAGES.temporaryPasswordRequired),
});
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** The second step completes the sign-in: the same answer as a sign-in without two-factor. */
export const twoFactorVerifyResponseSchema = loginResponseSchema;
