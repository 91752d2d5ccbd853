import { z } from 'zod';
import { idSchema, idText, visibleName, wholeNumberText } from './fields.js';

/** The bot configuration domains (spec section 2, Configuration Management), in tab order. */
export const CONFIG_DOMAINS = [
  'personalities',
  'feature-flags',
  'quirks',
  'moods',
  'catchphrases',
  'memories',
  'response-styles',
  'tasks',
] as const;
export type ConfigDomain = (typeof CONFIG_DOMAINS)[number];

export const CONFIG_LIMITS = {
  priorityMin: 1,
  priorityMax: 10,
  maxTags: 20,
  maxTagLength: 50,
  /** Content as stored (JSON text or plain text), in bytes. */
  maxContentBytes: 100 * 1024,
  maxImportItems: 1000,
} as const;

export const CONFIG_MESSAGES = {
  nameRequired: 'Name is required',
  nameMax: 'Name must be at most 200 characters',
  contentRequired: 'Content is required',
  contentTooLarge: 'Content must be at most 100 KB',
  invalidJson: 'Invalid JSON in content field',
  priority: 'Priority must be a whole number from 1 to 10',
  tooManyTags: 'At most 20 tags',
  tagTooLong: 'Each tag must be at most 50 characters',
  versionRequired: 'Send the version you loaded, so a newer change is not overwritten',
} as const;

/** Content is a JSON object or plain text (spec section 3). */
export const configContentSchema = z.union([z.record(z.string(), z.unknown()), z.string()]);
export type ConfigContent = z.infer<typeof configContentSchema>;

/** UTF-8 bytes of a string, surrogate pairs as one four-byte character (a lone half as U+FFFD, three). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * UTF-8 bytes of `JSON.stringify(value)`, worked out part by part so the count stops once past
 * `stopAfter` (a value of a million keys is not written out to learn it is too large).
 */
function jsonLength(value: unknown, stopAfter: number): number {
  if (value === null || typeof value !== 'object') return utf8Length(JSON.stringify(value) ?? 'null');
  if (Array.isArray(value)) {
    let bytes = 1 + Math.max(value.length - 1, 0) + 1;
    for (const item of value) {
      bytes += item === undefined || typeof item === 'function' ? 4 : jsonLength(item, stopAfter - bytes);
      if (bytes > stopAfter) return bytes;
    }
    return bytes;
  }
  let bytes = 1;
  let fields = 0;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    bytes += (fields > 0 ? 1 : 0) + utf8Length(JSON.stringify(key)) + 1 + jsonLength(item, stopAfter - bytes);
    fields += 1;
    if (bytes > stopAfter) return bytes;
  }
  return bytes + 1;
}

/**
 * UTF-8 size of the content as stored; counted here because the contract runs without DOM or Node APIs.
 * Counting may stop once past `stopAfter`: the answer is then some size above it.
 */
export function contentByteLength(content: ConfigContent, stopAfter = Infinity): number {
  return typeof content === 'string' ? utf8Length(content) : jsonLength(content, stopAfter);
}

/** Tags: trimmed, empties dropped, duplicates removed, at most 20 of at most 50 characters. */
export const tagsSchema = z
  .array(z.string())
  .default([])
  .transform((tags) => [...new Set(tags.map((t) => t.trim()).filter((t) => t.length > 0))])
  .pipe(
    z
      .array(z.string().max(CONFIG_LIMITS.maxTagLength, CONFIG_MESSAGES.tagTooLong))
      .max(CONFIG_LIMITS.maxTags, CONFIG_MESSAGES.tooManyTags),
  );

/** Splits the form's comma-separated tags the same way the server stores them. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t.length > 0),
    ),
  ];
}

export const configItemInputSchema = z.object({
  name: visibleName(
    z
      .string({ error: CONFIG_MESSAGES.nameRequired })
      .trim()
      .min(1, { error: CONFIG_MESSAGES.nameRequired, abort: true })
      .max(200, CONFIG_MESSAGES.nameMax),
  ),
  description: z.string().trim().max(2000).default(''),
  content: z
    .union([z.record(z.string(), z.unknown()), z.string()], {
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? CONFIG_MESSAGES.contentRequired
          : 'Content must be a JSON object or text',
    })
    .refine((c) => (typeof c === 'string' ? c.trim().length > 0 : true), {
      error: CONFIG_MESSAGES.contentRequired,
      abort: true,
    })
    .refine(
      (c) => contentByteLength(c, CONFIG_LIMITS.maxContentBytes) <= CONFIG_LIMITS.maxContentBytes,
      CONFIG_MESSAGES.contentTooLarge,
    ),
  is_active: z.boolean().default(true),
  tags: tagsSchema,
  priority: z
    .number({ error: CONFIG_MESSAGES.priority })
    .int(CONFIG_MESSAGES.priority)
    .min(CONFIG_LIMITS.priorityMin, CONFIG_MESSAGES.priority)
    .max(CONFIG_LIMITS.priorityMax, CONFIG_MESSAGES.priority)
    .default(1),
});
export type ConfigItemInput = z.input<typeof configItemInputSchema>;
export type ConfigItemValues = z.output<typeof configItemInputSchema>;

export const configItemUpdateSchema = configItemInputSchema.extend({
  version: z.number({ error: CONFIG_MESSAGES.versionRequired }).int().positive(),
});
export type ConfigItemUpdate = z.input<typeof configItemUpdateSchema>;

export const configItemSchema = z
  .object({
    id: z.number().int(),
    domain: z.enum(CONFIG_DOMAINS),
    name: z.string(),
    description: z.string(),
    content: configContentSchema,
    is_active: z.boolean(),
    tags: z.array(z.string()),
    priority: z.number().int(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'ConfigItem' });
export type ConfigItem = z.infer<typeof configItemSchema>;

export const configDomainParamsSchema = z.object({ domain: z.string() });
export const configItemParamsSchema = z.object({
  domain: z.string(),
  id: idText,
});
export const configRevisionParamsSchema = configItemParamsSchema.extend({
  revision: idText,
});
export const configDeleteQuerySchema = z.object({
  version: wholeNumberText(CONFIG_MESSAGES.versionRequired).pipe(idSchema),
});

/** The fields a revision keeps: enough to show it, diff it and bring it back. */
export const configSnapshotSchema = configItemSchema.pick({
  name: true,
  description: true,
  content: true,
  is_active: true,
  tags: true,
  priority: true,
});
export type ConfigSnapshot = z.infer<typeof configSnapshotSchema>;

export const configRevisionSchema = z
  .object({
    revision: z.number().int(),
    created_at: z.string(),
    updated_by: z.string().nullable(),
    /** What this revision did: created, updated (with the fields that changed), restored from n. */
    action: z.enum(['created', 'updated', 'restored']),
    changes: z.array(z.string()),
    restored_from: z.number().int().nullable(),
    snapshot: configSnapshotSchema,
  })
  .meta({ id: 'ConfigRevision' });
export type ConfigRevision = z.infer<typeof configRevisionSchema>;

export const configRestoreBodySchema = z
  .object({ version: z.number().int().positive().optional() })
  .nullish();

export const configExportSchema = z.object({
  domain: z.enum(CONFIG_DOMAINS),
  exported_at: z.string(),
  items: z.array(configSnapshotSchema.extend({ description: z.string() })),
});
export type ConfigExport = z.infer<typeof configExportSchema>;

export const configImportSchema = z.object({
  items: z
    .array(z.unknown())
    .max(CONFIG_LIMITS.maxImportItems, `At most ${CONFIG_LIMITS.maxImportItems} items per import`),
});

export const configImportResultSchema = z.object({ created: z.number().int(), updated: z.number().int() });
export type ConfigImportResult = z.infer<typeof configImportResultSchema>;

/** What the bot reads: every active item, grouped by domain, highest priority first. */
export const botConfigSchema = z
  .object({
    version: z.string(),
    domains: z.record(
      z.enum(CONFIG_DOMAINS),
      z.array(
        configItemSchema.pick({
          id: true,
          name: true,
          description: true,
          content: true,
          tags: true,
          priority: true,
          version: true,
        }),
      ),
    ),
  })
  .meta({ id: 'BotConfig' });
export type BotConfig = z.infer<typeof botConfigSchema>;
