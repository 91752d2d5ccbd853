import { z } from 'zod';
import { visibleName } from './fields.js';
import { apiKeyContentSchema } from './llm-content.js';
import { API_KEY_SCOPES } from './permissions.js';

/**
 * API keys for the bot (docs/bot-developers/ingestion.md, "API keys"). A key is `lumi_` followed by 43
 * base64url characters (32 random bytes); the server keeps only its SHA-256, so it is shown once.
 */
export const API_KEY_PREFIX = 'lumi_';

export const API_KEY_MESSAGES = {
  nameRequired: 'Name is required',
  nameMax: 'Name must be at most 100 characters',
  scopesRequired: 'Choose at least one scope',
  expiresInPast: 'The expiry must be in the future',
} as const;

export const API_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

export const apiKeyCreateSchema = z.object({
  name: visibleName(
    z
      .string({ error: API_KEY_MESSAGES.nameRequired })
      .trim()
      .min(1, { error: API_KEY_MESSAGES.nameRequired, abort: true })
      .max(100, API_KEY_MESSAGES.nameMax),
  ),
  scopes: z
    .array(z.enum(API_KEY_SCOPES), { error: API_KEY_MESSAGES.scopesRequired })
    .min(1, API_KEY_MESSAGES.scopesRequired)
    .transform((scopes) => [...new Set(scopes)]),
  /** When the key stops working; omitted or null: never. */
  expires_at: z.iso.datetime({ offset: true }).nullish(),
  /** Keep the prompt and completion text of the key's calls (docs/operators/metrics.md, "Content of calls"). */
  capture_content: z.boolean().default(false),
  content_redactions: apiKeyContentSchema.shape.content_redactions.default([]),
});
export type ApiKeyCreateInput = z.input<typeof apiKeyCreateSchema>;
export type ApiKeyCreateValues = z.output<typeof apiKeyCreateSchema>;

export const apiKeySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** The first characters of the key (`lumi_` and 7 more), enough to recognise it. */
    prefix: z.string(),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    created_at: z.string(),
    created_by: z.string().nullable(),
    last_used_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    capture_content: z.boolean(),
    /** Regular expressions (JavaScript syntax) whose matches become "[redacted]" before content is stored. */
    content_redactions: z.array(z.string()),
    /** Derived from revoked_at and expires_at at the time of the answer. */
    status: z.enum(API_KEY_STATUSES),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer to a create: the key itself, shown this once and never again. */
export const apiKeyCreatedSchema = apiKeySchema.extend({ key: z.string() }).meta({ id: 'ApiKeyCreated' });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;
