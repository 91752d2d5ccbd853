import { z } from 'zod';

/**
 * A signed-in session (a device), as Profile and the Users screen list them (docs/operators/security.md,
 * "Sessions").
 */
export const authSessionSchema = z
  .object({
    id: z.string(),
    /** When the user signed in. */
    created_at: z.string(),
    /** The session's latest use: its sign-in or its latest token refresh (about every 15 minutes in use). */
    last_used_at: z.string(),
    /** When it ends unless used or revoked before. */
    expires_at: z.string(),
    ip_address: z.string().nullable(),
    user_agent: z.string().nullable(),
    /** The browser read from the user agent (`Firefox 133`), or null when it cannot be told. */
    browser: z.string().nullable(),
    /** The operating system read from the user agent (`macOS`, `Windows`), or null. */
    os: z.string().nullable(),
    /** The session this request was made with ("this device"). */
    current: z.boolean(),
  })
  .meta({ id: 'AuthSession' });
export type AuthSession = z.infer<typeof authSessionSchema>;

/** Newest sign-in first; only sessions that have not ended. */
export const authSessionListResponseSchema = z.object({ sessions: z.array(authSessionSchema) });
export type AuthSessionListResponse = z.infer<typeof authSessionListResponseSchema>;

export const sessionIdParamSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'Must be a session id as listed by GET /api/auth/sessions'),
});

/** How many sessions a sign-out of other or all sessions ended. */
export const revokedSessionsResponseSchema = z.object({ revoked: z.number().int() });
export type RevokedSessionsResponse = z.infer<typeof revokedSessionsResponseSchema>;
