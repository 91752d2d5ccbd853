import { z } from 'zod';

/** Stable error codes: clients may branch on these; `detail` is for people. */
export const ERROR_CODES = [
  'validation_failed',
  'bad_request',
  'unauthenticated',
  'invalid_credentials',
  'session_expired',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'service_unavailable',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** The one error shape of every 4xx and 5xx answer. */
export const errorResponseSchema = z
  .object({
    detail: z.string(),
    code: z.enum(ERROR_CODES),
    errors: z.array(fieldErrorSchema).optional(),
    request_id: z.string(),
  })
  .meta({ id: 'Error' });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
