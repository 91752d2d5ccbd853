import { API_KEY_MESSAGES, apiKeyCreateSchema, type ApiKeyCreateInput } from '@lumi/contract';
import { z } from 'zod';

/** The last moment of a calendar day (YYYY-MM-DD) in the browser's time zone. */
export function endOfLocalDay(day: string): Date {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(year, month - 1, date, 23, 59, 59, 999);
}

/**
 * The create form: the contract's name and scope rules, and an optional expiry day; the key works
 * through the end of that day.
 */
export function apiKeyFormSchema(now: () => number = Date.now) {
  return z
    .object({
      name: apiKeyCreateSchema.shape.name,
      scopes: apiKeyCreateSchema.shape.scopes,
      expires_on: z.string(),
    })
    .refine((values) => !values.expires_on || endOfLocalDay(values.expires_on).getTime() > now(), {
      error: API_KEY_MESSAGES.expiresInPast,
      path: ['expires_on'],
    });
}

export type ApiKeyFormInput = z.input<ReturnType<typeof apiKeyFormSchema>>;
export type ApiKeyFormValues = z.output<ReturnType<typeof apiKeyFormSchema>>;

export function toApiKeyInput({ name, scopes, expires_on }: ApiKeyFormValues): ApiKeyCreateInput {
  return { name, scopes, expires_at: expires_on ? endOfLocalDay(expires_on).toISOString() : null };
}
