import { z } from 'zod';
import { ID_MAX, idSchema, idText, requiredString, visibleName, wholeNumberText } from './fields.js';

/** Spec section 9. */
export const MESSAGE_TYPES = ['dashboard', 'alert', 'digest', 'custom'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const PARSE_MODES = ['HTML', 'Markdown', 'MarkdownV2'] as const;
export type ParseMode = (typeof PARSE_MODES)[number];
/** Spec section 3, Template: what a template is when nothing else is said. */
export const DEFAULT_MESSAGE_TYPE: MessageType = 'custom';
export const DEFAULT_PARSE_MODE: ParseMode = 'HTML';

export const MESSAGING_LIMITS = {
  /** Telegram Bot API sendMessage: 1-4096 characters after entities parsing. */
  telegramTextMax: 4096,
  templateContentMax: 20_000,
  /** Sample or delivery data for one rendering, as JSON text. */
  renderDataMaxChars: 64 * 1024,
  nameMax: 200,
  descriptionMax: 2000,
  testHistoryDefault: 50,
  testHistoryMax: 200,
} as const;

export const MESSAGING_MESSAGES = {
  renderDataTooLarge: 'Data must be at most 64 KB as JSON',
  channelNameRequired: 'Channel name is required',
  channelNameMax: 'Channel name must be at most 200 characters',
  chatIdRequired: 'Chat ID is required',
  chatIdInvalid: 'Chat ID must be a numeric chat id (such as -1001234567890) or a public @username',
  topicNameRequired: 'Topic name is required',
  topicNameMax: 'Topic name must be at most 200 characters',
  threadIdInvalid: 'Message thread ID must be a positive whole number',
  templateNameRequired: 'Template name is required',
  templateNameMax: 'Template name must be at most 200 characters',
  channelRequired: 'Channel is required',
  contentRequired: 'Template content is required',
  contentTooLong: `Template content must be at most ${MESSAGING_LIMITS.templateContentMax} characters`,
  pinNeedsAllowPinning: 'Pin by Default can only be on when Allow Pinning is on',
  versionRequired: 'Send the version you edited, so a newer change is not overwritten',
  variableNameRequired: 'Variable name is required',
  variableNameInvalid:
    'Variable names start with a letter or underscore and contain only letters, digits and underscores (at most 64)',
  descriptionMax: 'Description must be at most 2000 characters',
} as const;

/**
 * The helpers a template may call besides Handlebars' own if, unless, each, with and lookup (issue 5,
 * "Rendering"). The console lists them in the variables panel; the server registers exactly these.
 */
export const TEMPLATE_HELPERS = [
  {
    name: 'formatNumber',
    usage: '{{formatNumber market_cap}}',
    description: 'K/M/B suffixes: 1500 → 1.5K, 1500000 → 1.5M, 2500000000 → 2.5B',
  },
  {
    name: 'formatTimeAgo',
    usage: '{{formatTimeAgo timestamp}}',
    description: "Relative time, such as '5m ago', '3h ago', '2d ago'",
  },
  {
    name: 'formatPercentage',
    usage: '{{formatPercentage price_change_24h}}',
    description: 'Signed, two decimals: 5.5 → +5.50%, -2 → -2.00%',
  },
  {
    name: 'formatCurrency',
    usage: '{{formatCurrency price_usd}}',
    description: 'US dollars: 1234.5 → $1,234.50; tiny prices keep their digits: 0.00001234 → $0.00001234',
  },
  { name: 'uppercase', usage: '{{uppercase token_name}}', description: 'UPPER CASE' },
  { name: 'lowercase', usage: '{{lowercase token_name}}', description: 'lower case' },
  {
    name: 'truncate',
    usage: '{{truncate token_name 20}}',
    description: "Cuts text to a length and adds '...' when it was longer",
  },
  {
    name: 'default',
    usage: '{{default holders "n/a"}}',
    description: 'A fallback for a missing or empty value',
  },
] as const;
export const TEMPLATE_HELPER_NAMES = TEMPLATE_HELPERS.map((h) => h.name) as [
  (typeof TEMPLATE_HELPERS)[number]['name'],
  ...(typeof TEMPLATE_HELPERS)[number]['name'][],
];
export type TemplateHelperName = (typeof TEMPLATE_HELPERS)[number]['name'];

export const VARIABLE_DATA_TYPES = [
  'string',
  'number',
  'integer',
  'boolean',
  'datetime',
  'array',
  'object',
] as const;

/** In updates a description may be left out (kept) or null (cleared). */
const descriptionUpdate = z
  .string()
  .trim()
  .max(MESSAGING_LIMITS.descriptionMax, MESSAGING_MESSAGES.descriptionMax)
  .nullish();
const description = descriptionUpdate.transform((v) => v ?? '');

/** 'true' or 'false' in a query string. */
const booleanQuery = z
  .enum(['true', 'false'], { error: "Use 'true' or 'false'" })
  .transform((v) => v === 'true')
  .optional();

const idParam = idText;

// ---- Channels and topics ---------------------------------------------------------------------------

/** A numeric chat id, or a public username: 5 to 32 letters, digits and underscores after the '@'. */
export const CHAT_ID_PATTERN = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;

const channelName = visibleName(
  requiredString(MESSAGING_MESSAGES.channelNameRequired).max(
    MESSAGING_LIMITS.nameMax,
    MESSAGING_MESSAGES.channelNameMax,
  ),
);
const chatId = requiredString(MESSAGING_MESSAGES.chatIdRequired).regex(
  CHAT_ID_PATTERN,
  MESSAGING_MESSAGES.chatIdInvalid,
);

export const channelInputSchema = z.object({
  channel_name: channelName,
  chat_id: chatId,
  enabled: z.boolean().default(true),
  description,
});
export type ChannelInput = z.input<typeof channelInputSchema>;
export type ChannelValues = z.output<typeof channelInputSchema>;
/** PUT: the fields sent are changed, the others keep their values (no defaults here, on purpose). */
export const channelUpdateSchema = z.object({
  channel_name: channelName.optional(),
  chat_id: chatId.optional(),
  enabled: z.boolean().optional(),
  description: descriptionUpdate,
});
export type ChannelUpdate = z.output<typeof channelUpdateSchema>;

export const channelSchema = z
  .object({
    id: z.number().int(),
    channel_name: z.string(),
    chat_id: z.string(),
    enabled: z.boolean(),
    description: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Channel' });
export type Channel = z.infer<typeof channelSchema>;

export const enabledQuerySchema = z.object({ enabled: booleanQuery });
export const channelParamsSchema = z.object({ id: idParam });
export const topicParamsSchema = z.object({ id: idParam, topic_id: idParam });

const messageThreadId = z
  .number({ error: MESSAGING_MESSAGES.threadIdInvalid })
  .int(MESSAGING_MESSAGES.threadIdInvalid)
  .positive(MESSAGING_MESSAGES.threadIdInvalid)
  .max(ID_MAX, MESSAGING_MESSAGES.threadIdInvalid);
const topicName = visibleName(
  requiredString(MESSAGING_MESSAGES.topicNameRequired).max(
    MESSAGING_LIMITS.nameMax,
    MESSAGING_MESSAGES.topicNameMax,
  ),
);

export const topicInputSchema = z.object({
  topic_name: topicName,
  message_thread_id: messageThreadId,
  enabled: z.boolean().default(true),
});
export type TopicInput = z.input<typeof topicInputSchema>;
export type TopicValues = z.output<typeof topicInputSchema>;
export const topicUpdateSchema = z.object({
  topic_name: topicName.optional(),
  message_thread_id: messageThreadId.optional(),
  enabled: z.boolean().optional(),
});
export type TopicUpdate = z.output<typeof topicUpdateSchema>;

export const topicSchema = z
  .object({
    id: z.number().int(),
    channel_id: z.number().int(),
    topic_name: z.string(),
    message_thread_id: z.number().int(),
    enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Topic' });
export type Topic = z.infer<typeof topicSchema>;

// ---- Templates -------------------------------------------------------------------------------------

const templateName = visibleName(
  requiredString(MESSAGING_MESSAGES.templateNameRequired).max(
    MESSAGING_LIMITS.nameMax,
    MESSAGING_MESSAGES.templateNameMax,
  ),
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

/** Fields and defaults of spec section 3. */
export const templateInputSchema = z
  .object({
    template_name: templateName,
    channel_id: channelId,
    topic_id: idSchema.nullish().transform((v) => v ?? null),
    template_content: templateContent,
    message_type: z.enum(MESSAGE_TYPES).default(DEFAULT_MESSAGE_TYPE),
    parse_mode: z.enum(PARSE_MODES).default(DEFAULT_PARSE_MODE),
    disable_web_preview: z.boolean().default(false),
    disable_notification: z.boolean().default(false),
    allow_pinning: z.boolean().default(false),
    pin_by_default: z.boolean().default(false),
    enabled: z.boolean().default(true),
    description,
  })
  .superRefine(pinNeedsAllowPinning);
export type TemplateInput = z.input<typeof templateInputSchema>;
export type TemplateValues = z.output<typeof templateInputSchema>;

/** PUT: `version` is the one the edit started from; fields left out keep their values. */
export const templateUpdateSchema = z
  .object({
    version: z.number({ error: MESSAGING_MESSAGES.versionRequired }).int().positive(),
    template_name: templateName.optional(),
    channel_id: channelId.optional(),
    topic_id: idSchema.nullable().optional(),
    template_content: templateContent.optional(),
    message_type: z.enum(MESSAGE_TYPES).optional(),
    parse_mode: z.enum(PARSE_MODES).optional(),
    disable_web_preview: z.boolean().optional(),
    disable_notification: z.boolean().optional(),
    allow_pinning: z.boolean().optional(),
    pin_by_default: z.boolean().optional(),
    enabled: z.boolean().optional(),
    description: descriptionUpdate,
  })
  .superRefine(pinNeedsAllowPinning);
export type TemplateUpdate = z.output<typeof templateUpdateSchema>;

/** The content and settings a version keeps. */
export const templateSnapshotSchema = z.object({
  template_name: z.string(),
  channel_id: z.number().int(),
  topic_id: z.number().int().nullable(),
  template_content: z.string(),
  message_type: z.enum(MESSAGE_TYPES),
  parse_mode: z.enum(PARSE_MODES),
  disable_web_preview: z.boolean(),
  disable_notification: z.boolean(),
  allow_pinning: z.boolean(),
  pin_by_default: z.boolean(),
  enabled: z.boolean(),
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
export const templateDeleteQuerySchema = z.object({ version: idParam.optional() });
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

// ---- Variables -------------------------------------------------------------------------------------

export const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The panel's default group (spec section 2, Messages). */
export const DEFAULT_VARIABLE_CATEGORY = 'General';

const variableName = requiredString(MESSAGING_MESSAGES.variableNameRequired).regex(
  VARIABLE_NAME_PATTERN,
  MESSAGING_MESSAGES.variableNameInvalid,
);
const category = z.string().trim().max(100, 'Category must be at most 100 characters').nullish();
const exampleValue = z.string().max(1000, 'Example value must be at most 1000 characters').nullish();
const availableHelpers = z
  .array(z.enum(TEMPLATE_HELPER_NAMES, { error: `Helpers are: ${TEMPLATE_HELPER_NAMES.join(', ')}` }))
  .transform((helpers) => [...new Set(helpers)]);

export const variableInputSchema = z.object({
  variable_name: variableName,
  data_type: z.enum(VARIABLE_DATA_TYPES).default('string'),
  description,
  category: category.transform((v) => v || DEFAULT_VARIABLE_CATEGORY),
  example_value: exampleValue.transform((v) => v ?? null),
  available_helpers: availableHelpers.default([]),
});
export type VariableInput = z.input<typeof variableInputSchema>;
export type VariableValues = z.output<typeof variableInputSchema>;
/** PUT: the fields sent are changed, the others keep their values. */
export const variableUpdateSchema = z.object({
  variable_name: variableName.optional(),
  data_type: z.enum(VARIABLE_DATA_TYPES).optional(),
  description: descriptionUpdate,
  category,
  example_value: exampleValue,
  available_helpers: availableHelpers.optional(),
});
export type VariableUpdate = z.output<typeof variableUpdateSchema>;

export const variableSchema = z
  .object({
    id: z.number().int(),
    variable_name: z.string(),
    data_type: z.enum(VARIABLE_DATA_TYPES),
    description: z.string(),
    category: z.string(),
    example_value: z.string().nullable(),
    available_helpers: z.array(z.string()),
  })
  .meta({ id: 'MessageVariable' });
export type Variable = z.infer<typeof variableSchema>;
export const variableParamsSchema = z.object({ id: idParam });

// ---- Rendering -------------------------------------------------------------------------------------

const sampleData = z
  .record(z.string(), z.unknown())
  .refine(
    (data) => JSON.stringify(data).length <= MESSAGING_LIMITS.renderDataMaxChars,
    MESSAGING_MESSAGES.renderDataTooLarge,
  )
  .default({});

export const renderTemplateBodySchema = z.object({ data: sampleData });
export const renderContentBodySchema = z.object({
  template_content: z
    .string({ error: MESSAGING_MESSAGES.contentRequired })
    .max(MESSAGING_LIMITS.templateContentMax, MESSAGING_MESSAGES.contentTooLong),
  parse_mode: z.enum(PARSE_MODES).default(DEFAULT_PARSE_MODE),
  data: sampleData,
});
export type RenderContentBody = z.input<typeof renderContentBodySchema>;

export const renderProblemSchema = z.object({
  severity: z.enum(['error', 'warning']),
  /** 'template': the position is in the template source; 'message': in the rendered text. */
  source: z.enum(['template', 'message']),
  message: z.string(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
});
export type RenderProblem = z.infer<typeof renderProblemSchema>;

export const renderResultSchema = z
  .object({
    /** True when the text renders and Telegram would accept it. */
    success: z.boolean(),
    rendered: z.string(),
    /** The first error, with its line and column. */
    error: z.string().optional(),
    /** Characters Telegram counts: the text after entity parsing (at most 4096). */
    length: z.number().int(),
    warnings: z.array(z.string()),
    problems: z.array(renderProblemSchema),
  })
  .meta({ id: 'RenderResult' });
export type RenderResult = z.infer<typeof renderResultSchema>;

// ---- Test send -------------------------------------------------------------------------------------

export const testSendBodySchema = z.object({
  data: sampleData,
  /** Another channel to send to instead of the template's. */
  test_channel_id: idSchema.nullish(),
  /** A forum topic's message_thread_id to send to instead of the template's topic. */
  test_thread_id: z
    .number({ error: MESSAGING_MESSAGES.threadIdInvalid })
    .int(MESSAGING_MESSAGES.threadIdInvalid)
    .positive(MESSAGING_MESSAGES.threadIdInvalid)
    .max(ID_MAX, MESSAGING_MESSAGES.threadIdInvalid)
    .nullish(),
});
export type TestSendBody = z.input<typeof testSendBodySchema>;

export const testSendResultSchema = z
  .object({
    success: z.boolean(),
    telegram_message_id: z.number().int().nullable(),
    /** Why it failed; or, when the message went out, why it could not be pinned. */
    error: z.string().optional(),
    pinned: z.boolean(),
  })
  .meta({ id: 'TestSendResult' });
export type TestSendResult = z.infer<typeof testSendResultSchema>;

export const testSendRecordSchema = z
  .object({
    id: z.number().int(),
    template_id: z.number().int(),
    template_version: z.number().int(),
    user: z.string().nullable(),
    channel_id: z.number().int().nullable(),
    channel_name: z.string().nullable(),
    chat_id: z.string().nullable(),
    topic_id: z.number().int().nullable(),
    message_thread_id: z.number().int().nullable(),
    success: z.boolean(),
    telegram_message_id: z.number().int().nullable(),
    pinned: z.boolean(),
    error: z.string().nullable(),
    sent_at: z.string(),
  })
  .meta({ id: 'TestSendRecord' });
export type TestSendRecord = z.infer<typeof testSendRecordSchema>;

export const testHistoryQuerySchema = z.object({
  limit: wholeNumberText()
    .pipe(z.number().int().min(1).max(MESSAGING_LIMITS.testHistoryMax))
    .default(MESSAGING_LIMITS.testHistoryDefault),
});
