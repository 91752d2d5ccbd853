import { z } from 'zod';
import { ID_MAX, idSchema, requiredName, wholeNumberText } from '../fields.js';
import {
  DEFAULT_MESSAGE_TYPE,
  DEFAULT_PARSE_MODE,
  MESSAGE_TYPES,
  MESSAGING_LIMITS,
  MESSAGING_MESSAGES,
  PARSE_MODES,
} from './constants.js';
import { booleanQuery, description, descriptionUpdate, idParam } from './shared-fields.js';

/**
 * Message templates and their versions (spec section 3, Template; docs/bot-developers/deliveries.md,
 * "Message templates").
 */

const templateName = requiredName(
  MESSAGING_MESSAGES.templateNameRequired,
  MESSAGING_LIMITS.nameMax,
  MESSAGING_MESSAGES.templateNameMax,
);
const channelId = z
  .number({ error: MESSAGING_MESSAGES.channelRequired })
  .int(MESSAGING_MESSAGES.channelRequired)
  .positive(MESSAGING_MESSAGES.channelRequired)
  .max(ID_MAX, MESSAGING_MESSAGES.channelRequired);
const templateContent = z
  .string({ error: MESSAGING_MESSAGES.contentRequired })
  .refine((c) => c.trim().length > 0, { error: MESSAGING_MESSAGES.contentRequired, abort: true })
  .refine((c) => c.length <= MESSAGING_LIMITS.templateContentMax, MESSAGING_MESSAGES.contentTooLong);

/** Pin by Default is only accepted with Allow Pinning (spec section 4). */
function pinNeedsAllowPinning(
  values: { allow_pinning?: boolean; pin_by_default?: boolean },
  ctx: z.RefinementCtx,
) {
  if (values.pin_by_default === true && values.allow_pinning === false) {
    ctx.addIssue({
      code: 'custom',
      path: ['pin_by_default'],
      message: MESSAGING_MESSAGES.pinNeedsAllowPinning,
    });
  }
}

/**
 * A template's fields and what each accepts (spec section 3): the one list the create, update and snapshot
 * shapes are built from.
 */
const templateFields = {
  template_name: templateName,
  channel_id: channelId,
  topic_id: idSchema.nullable(),
  template_content: templateContent,
  message_type: z.enum(MESSAGE_TYPES),
  parse_mode: z.enum(PARSE_MODES),
  disable_web_preview: z.boolean(),
  disable_notification: z.boolean(),
  allow_pinning: z.boolean(),
  pin_by_default: z.boolean(),
  /**
   * A delivery longer than Telegram's 4,096 characters goes out as consecutive messages (docs/bot-developers/
   * deliveries.md, "Long messages"); without it, it is refused with its length.
   */
  split_long_messages: z.boolean(),
  enabled: z.boolean(),
  description: descriptionUpdate,
};
export type TemplateField = keyof typeof templateFields;
/** The fields in the editor's order. */
export const TEMPLATE_FIELDS = Object.keys(templateFields) as TemplateField[];

/** What a new template is when a field is left out (spec section 3). */
export const TEMPLATE_DEFAULTS = {
  topic_id: null,
  message_type: DEFAULT_MESSAGE_TYPE,
  parse_mode: DEFAULT_PARSE_MODE,
  disable_web_preview: false,
  disable_notification: false,
  allow_pinning: false,
  pin_by_default: false,
  split_long_messages: false,
  enabled: true,
  description: '',
} as const satisfies Partial<{ [K in TemplateField]: z.output<(typeof templateFields)[K]> }>;

export const templateInputSchema = z
  .object({
    ...templateFields,
    topic_id: templateFields.topic_id.optional().transform((v) => v ?? TEMPLATE_DEFAULTS.topic_id),
    message_type: templateFields.message_type.default(TEMPLATE_DEFAULTS.message_type),
    parse_mode: templateFields.parse_mode.default(TEMPLATE_DEFAULTS.parse_mode),
    disable_web_preview: z.boolean().default(TEMPLATE_DEFAULTS.disable_web_preview),
    disable_notification: z.boolean().default(TEMPLATE_DEFAULTS.disable_notification),
    allow_pinning: z.boolean().default(TEMPLATE_DEFAULTS.allow_pinning),
    pin_by_default: z.boolean().default(TEMPLATE_DEFAULTS.pin_by_default),
    split_long_messages: z.boolean().default(TEMPLATE_DEFAULTS.split_long_messages),
    enabled: z.boolean().default(TEMPLATE_DEFAULTS.enabled),
    description,
  })
  .superRefine(pinNeedsAllowPinning);
export type TemplateInput = z.input<typeof templateInputSchema>;
export type TemplateValues = z.output<typeof templateInputSchema>;

/** PUT: `version` is the one the edit started from; fields left out keep their values. */
export const templateUpdateSchema = z
  .object(templateFields)
  .partial()
  .extend({ version: z.number({ error: MESSAGING_MESSAGES.versionRequired }).int().positive() })
  .superRefine(pinNeedsAllowPinning);
export type TemplateUpdate = z.output<typeof templateUpdateSchema>;

/**
 * The content and settings a version keeps, as answers carry them: the same fields, typed but not
 * re-validated, so a row stored under an older rule can still be read.
 */
export const templateSnapshotSchema = z.object({
  ...templateFields,
  template_name: z.string(),
  channel_id: z.number().int(),
  topic_id: z.number().int().nullable(),
  template_content: z.string(),
  /** Versions stored before the setting existed have none: they did not split. */
  split_long_messages: z.boolean().default(false),
  description: z.string(),
});
export type TemplateSnapshot = z.infer<typeof templateSnapshotSchema>;

export const templateSchema = templateSnapshotSchema
  .extend({
    id: z.number().int(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'MessageTemplate' });
export type Template = z.infer<typeof templateSchema>;

export const templateQuerySchema = z.object({
  channel_id: idParam.optional(),
  message_type: z.enum(MESSAGE_TYPES).optional(),
  enabled: booleanQuery,
});
export type TemplateQuery = z.output<typeof templateQuerySchema>;
export const templateParamsSchema = z.object({ id: idParam });
export const templateVersionParamsSchema = z.object({ id: idParam, version: idParam });
/** A delete names the version it was shown, so it never removes an edit the user has not seen. */
export const templateDeleteQuerySchema = z.object({
  version: wholeNumberText(MESSAGING_MESSAGES.versionRequired).pipe(idSchema),
});
export const templateRestoreBodySchema = z
  .object({ version: z.number().int().positive().optional() })
  .nullish();

export const templateVersionSchema = z
  .object({
    version: z.number().int(),
    created_at: z.string(),
    updated_by: z.string().nullable(),
    action: z.enum(['created', 'updated', 'restored']),
    /** Fields that differ from the version before. */
    changes: z.array(z.string()),
    restored_from: z.number().int().nullable(),
    snapshot: templateSnapshotSchema,
  })
  .meta({ id: 'MessageTemplateVersion' });
export type TemplateVersion = z.infer<typeof templateVersionSchema>;
