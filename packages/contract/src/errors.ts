import { z } from 'zod';

/** Stable error codes: clients may branch on these; `detail` is for people. */
export const ERROR_CODES = [
  'validation_failed',
  'bad_request',
  'unauthenticated',
  'invalid_credentials',
  'session_expired',
  /** The sign-in's two-factor challenge expired or was used: sign in with the password again. */
  'challenge_expired',
  'forbidden',
  /** 403: the user must change their temporary password first (POST /api/auth/change-password). */
  'password_change_required',
  /** 403: the user must set up two-factor sign-in first (POST /api/auth/2fa/setup, then enable). */
  'two_factor_setup_required',
  'not_found',
  'conflict',
  'payload_too_large',
  /** 431: the request's headers, its URL among them, are over 16 KB. */
  'headers_too_large',
  /** 408: the request did not arrive in time. */
  'request_timeout',
  'unsupported_media_type',
  'too_many_requests',
  'service_unavailable',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const fieldErrorSchema = z.object({
  path: z.string(),
  message: z.string(),
  /** Where in the field's text the problem is (1-based), for fields that hold text such as a template. */
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** The one error shape of every 4xx and 5xx answer. */
export const errorResponseSchema = z
  .object({
    detail: z.string(),
    code: z.enum(ERROR_CODES),
    errors: z.array(fieldErrorSchema).optional(),
    /** A send request that was refused: the delivery kept with the reason (status `refused`). */
    delivery_id: z.number().int().optional(),
    request_id: z.string(),
  })
  .meta({ id: 'Error' });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
