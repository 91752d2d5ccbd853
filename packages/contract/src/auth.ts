import { z } from 'zod';
import { emailField, MESSAGES, nameField, passwordField } from './fields.js';

export const loginRequestSchema = z.object({
  username: z.string({ error: MESSAGES.usernameRequired }).trim().min(1, MESSAGES.usernameRequired).max(200),
  password: z.string({ error: MESSAGES.passwordRequired }).min(1, MESSAGES.passwordRequired).max(1024),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const sessionRoleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  permissions: z.array(z.string()),
});
export type SessionRole = z.infer<typeof sessionRoleSchema>;

/**
 * What a signed-in user must do before anything else (docs/operators/security.md, "Temporary passwords" and
 * "Two-factor sign-in"): change the temporary password an admin set, or set up two-factor sign-in that a role
 * requires. Until then every other route answers 403 with the error code of the same name
 * (`password_change_required`, `two_factor_setup_required`).
 */
export const PENDING_ACTIONS = ['password_change', 'two_factor_setup'] as const;
export type PendingAction = (typeof PENDING_ACTIONS)[number];

export const sessionUserSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    name: z.string(),
    /** The first role's name: keeps the spec's login contract. */
    role: z.string(),
    roles: z.array(sessionRoleSchema),
    /** Null when the user may use the console; otherwise what they must do first. */
    pending_action: z.enum(PENDING_ACTIONS).nullable(),
  })
  .meta({ id: 'SessionUser' });
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  /** Returned only to clients that asked for it in the body (not browsers, which get the cookie). */
  refresh_token: z.string().optional(),
});

export const loginResponseSchema = tokenResponseSchema.extend({
  user: sessionUserSchema,
  /** The user signed in with a temporary password and must change it first (`user.pending_action`). */
  password_change_required: z.literal(true).optional(),
  /** A role of the user requires two-factor sign-in, which they must set up first (`user.pending_action`). */
  two_factor_setup_required: z.literal(true).optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Browsers send no body at all (the cookie carries the token); Fastify then hands over null. */
export const refreshRequestSchema = z
  .object({ refresh_token: z.string().min(1).max(200).optional() })
  .nullish();
export const refreshResponseSchema = tokenResponseSchema.extend({ user: sessionUserSchema });
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

export const profileSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  name: z.string(),
  two_factor_enabled: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;

export const updateProfileSchema = z.object({ name: nameField.optional(), email: emailField.optional() });
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

export const changePasswordSchema = z
  .object({
    current_password: z
      .string({ error: MESSAGES.currentPasswordRequired })
      .min(1, MESSAGES.currentPasswordRequired)
      .max(1024),
    new_password: passwordField(MESSAGES.newPasswordRequired),
    confirm_password: z.string({ error: MESSAGES.passwordsMismatch }),
  })
  .refine((v) => v.new_password === v.confirm_password, {
    path: ['confirm_password'],
    error: MESSAGES.passwordsMismatch,
  });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** The Profile Settings form (spec section 5): the password part is checked only while it is open. */
export const profileFormSchema = z
  .object({
    name: nameField,
    email: emailField,
    changePassword: z.boolean(),
    currentPassword: z.string(),
    newPassword: z.string(),
    confirmPassword: z.string(),
  })
  .superRefine((v, ctx) => {
    if (!v.changePassword) return;
    if (!v.currentPassword)
      ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: MESSAGES.currentPasswordRequired });
    if (!v.newPassword)
      ctx.addIssue({ code: 'custom', path: ['newPassword'], message: MESSAGES.newPasswordRequired });
    else if (v.newPassword.length < 8)
      ctx.addIssue({ code: 'custom', path: ['newPassword'], message: MESSAGES.passwordMin });
    if (v.newPassword !== v.confirmPassword)
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: MESSAGES.passwordsMismatch });
  });
export type ProfileFormValues = z.infer<typeof profileFormSchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });
