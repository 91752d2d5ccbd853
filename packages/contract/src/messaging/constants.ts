import { TELEGRAM_TEXT_MAX_LENGTH, type ParseMode } from '@lumi/telegram-markup';

export { PARSE_MODES, type ParseMode } from '@lumi/telegram-markup';

/** Spec section 9. */
export const MESSAGE_TYPES = ['dashboard', 'alert', 'digest', 'custom'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
/** Spec section 3, Template: what a template is when nothing else is said. */
export const DEFAULT_MESSAGE_TYPE: MessageType = 'custom';
export const DEFAULT_PARSE_MODE: ParseMode = 'HTML';

export const MESSAGING_LIMITS = {
  /** Telegram Bot API sendMessage: 1-4096 characters after entities parsing. */
  telegramTextMax: TELEGRAM_TEXT_MAX_LENGTH,
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
 * The helpers a template may call besides Handlebars' own if, unless, each, with and lookup (spec section 2,
 * "Messages (/messages)"). The console lists them in the variables panel; the server registers exactly these.
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
