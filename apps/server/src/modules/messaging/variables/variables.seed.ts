import type { VariableValues } from '@lumi/contract';

const LLM = 'Schedule: LLM usage yesterday';
const HEALTH = 'Schedule: bot health now';
const BUDGETS = 'Schedule: token budgets today';

/**
 * What each data source of a schedule gives a template (docs/bot-developers/deliveries.md, "Schedules";
 * schedule-data.ts computes them), so the editor offers them. Lists are for {{#each}}: their entries' fields
 * are in the description.
 */
export const SCHEDULE_SOURCE_VARIABLES: readonly VariableValues[] = [
  {
    variable_name: 'usage_date',
    data_type: 'string',
    description: 'The day reported (YYYY-MM-DD in LUMI_TIMEZONE)',
    category: LLM,
    example_value: '2026-11-24',
    available_helpers: ['default'],
  },
  {
    variable_name: 'providers',
    data_type: 'array',
    description: 'Usage by provider: each has provider, tokens, cost (US dollars) and requests',
    category: LLM,
    example_value: '[{"provider":"openai","tokens":120000,"cost":1.8,"requests":42}]',
    available_helpers: [],
  },
  {
    variable_name: 'total_tokens',
    data_type: 'integer',
    description: 'Tokens used that day by all providers',
    category: LLM,
    example_value: '120000',
    available_helpers: ['formatNumber', 'default'],
  },
  {
    variable_name: 'total_cost',
    data_type: 'number',
    description: 'Cost of that day in US dollars',
    category: LLM,
    example_value: '1.8',
    available_helpers: ['formatCurrency', 'formatNumber', 'default'],
  },
  {
    variable_name: 'total_requests',
    data_type: 'integer',
    description: 'LLM requests that day by all providers',
    category: LLM,
    example_value: '42',
    available_helpers: ['formatNumber', 'default'],
  },
  {
    variable_name: 'telegram_status',
    data_type: 'string',
    description: "The bot's Telegram status from its latest heartbeat, or no_heartbeat",
    category: HEALTH,
    example_value: 'connected',
    available_helpers: ['uppercase', 'default'],
  },
  {
    variable_name: 'uptime_seconds',
    data_type: 'integer',
    description: 'Seconds since the bot started (0 without a recent heartbeat)',
    category: HEALTH,
    example_value: '86400',
    available_helpers: ['formatNumber', 'default'],
  },
  {
    variable_name: 'uptime_hours',
    data_type: 'integer',
    description: 'Whole hours since the bot started',
    category: HEALTH,
    example_value: '24',
    available_helpers: ['formatNumber', 'default'],
  },
  {
    variable_name: 'error_count_24h',
    data_type: 'integer',
    description: 'Errors the bot reported in the last 24 hours',
    category: HEALTH,
    example_value: '3',
    available_helpers: ['formatNumber', 'default'],
  },
  {
    variable_name: 'active_lock_count',
    data_type: 'integer',
    description: 'Locks the bot holds now',
    category: HEALTH,
    example_value: '1',
    available_helpers: ['default'],
  },
  {
    variable_name: 'active_locks',
    data_type: 'array',
    description: 'The locks the bot holds now, as its heartbeat lists them',
    category: HEALTH,
    example_value: '[]',
    available_helpers: [],
  },
  {
    variable_name: 'budget_date',
    data_type: 'string',
    description: 'Today (YYYY-MM-DD in LUMI_TIMEZONE)',
    category: BUDGETS,
    example_value: '2026-11-25',
    available_helpers: ['default'],
  },
  {
    variable_name: 'budgets',
    data_type: 'array',
    description:
      'Active budgets: each has provider, daily_token_limit, daily_cost_limit, tokens_used, cost_incurred, usage_percentage and exceeded',
    category: BUDGETS,
    example_value: '[{"provider":"openai","tokens_used":50000,"usage_percentage":50,"exceeded":false}]',
    available_helpers: [],
  },
  {
    variable_name: 'exceeded_count',
    data_type: 'integer',
    description: 'Active budgets at or over their limit today',
    category: BUDGETS,
    example_value: '0',
    available_helpers: ['default'],
  },
];

const ALERTS = 'Alerts';

/**
 * What an alert notification gives the `alert` template (docs/bot-developers/alerts.md, "Contact points";
 * alert-notifier.ts fills them in), so the editor offers them.
 */
export const ALERT_VARIABLES: readonly VariableValues[] = [
  {
    variable_name: 'alert_rule_name',
    data_type: 'string',
    description: 'The name of the alert rule',
    category: ALERTS,
    example_value: 'Bot heartbeat',
    available_helpers: ['truncate', 'uppercase', 'default'],
  },
  {
    variable_name: 'alert_severity',
    data_type: 'string',
    description: "The rule's severity: warning or critical",
    category: ALERTS,
    example_value: 'critical',
    available_helpers: ['uppercase', 'default'],
  },
  {
    variable_name: 'alert_state',
    data_type: 'string',
    description: "The rule's state now: ok, pending or firing",
    category: ALERTS,
    example_value: 'firing',
    available_helpers: ['uppercase', 'default'],
  },
  {
    variable_name: 'alert_kind',
    data_type: 'string',
    description: 'Why the message is sent: firing, renotify (still firing), resolved or test',
    category: ALERTS,
    example_value: 'firing',
    available_helpers: ['uppercase', 'default'],
  },
  {
    variable_name: 'alert_value',
    data_type: 'number',
    description: 'The measured value that caused it, in alert_unit (empty when there was no data)',
    category: ALERTS,
    example_value: '340',
    available_helpers: ['formatNumber', 'default'],
  },
  {
    variable_name: 'alert_threshold',
    data_type: 'number',
    description: "The rule's threshold, in alert_unit",
    category: ALERTS,
    example_value: '60',
    available_helpers: ['formatNumber', 'default'],
  },
  {
    variable_name: 'alert_unit',
    data_type: 'string',
    description: 'The unit of the value and threshold: s, min, count, usd, percent, ms or bool',
    category: ALERTS,
    example_value: 's',
    available_helpers: ['default'],
  },
  {
    variable_name: 'alert_summary',
    data_type: 'string',
    description: 'One sentence on what was measured',
    category: ALERTS,
    example_value: 'No heartbeat for 340 s (threshold 60 s)',
    available_helpers: ['truncate', 'default'],
  },
  {
    variable_name: 'alert_started_at',
    data_type: 'datetime',
    description: 'When the rule started firing (or pending), ISO 8601',
    category: ALERTS,
    example_value: '2026-11-26T09:40:00.000Z',
    available_helpers: ['formatTimeAgo', 'default'],
  },
  {
    variable_name: 'alert_url',
    data_type: 'string',
    description: 'The rule in the console (LUMI_PUBLIC_URL)',
    category: ALERTS,
    example_value: 'https://lumi.example.com/admin/alerts?rule=3',
    available_helpers: ['default'],
  },
];

/**
 * The catalogue a new installation starts with: the market variables the bot's messages use (spec section
 * 2, "Messages (/messages)": the Preview panel's sample data), those the schedules' data sources give
 * (docs/bot-developers/deliveries.md, "Schedules") and those of alert notifications
 * (docs/bot-developers/alerts.md, "Contact points"). The console's Preview and Test panels build their
 * sample JSON from these names and example values.
 */
export const SEEDED_VARIABLES: readonly VariableValues[] = [
  {
    variable_name: 'token_name',
    data_type: 'string',
    description: 'Name of the token',
    category: 'Token',
    example_value: 'Pepe',
    available_helpers: ['uppercase', 'lowercase', 'truncate', 'default'],
  },
  {
    variable_name: 'token_address',
    data_type: 'string',
    description: 'Contract address of the token',
    category: 'Token',
    example_value: '0x6982508145454Ce325dDbE47a25d4ec3d2311933',
    available_helpers: ['truncate', 'lowercase', 'uppercase', 'default'],
  },
  {
    variable_name: 'price_usd',
    data_type: 'number',
    description: 'Price in US dollars',
    category: 'Market',
    example_value: '0.00001234',
    available_helpers: ['formatCurrency', 'formatNumber', 'default'],
  },
  {
    variable_name: 'market_cap',
    data_type: 'number',
    description: 'Market capitalisation in US dollars',
    category: 'Market',
    example_value: '5200000000',
    available_helpers: ['formatNumber', 'formatCurrency', 'default'],
  },
  {
    variable_name: 'volume_24h',
    data_type: 'number',
    description: 'Trading volume over the last 24 hours, in US dollars',
    category: 'Market',
    example_value: '1500000',
    available_helpers: ['formatNumber', 'formatCurrency', 'default'],
  },
  {
    variable_name: 'price_change_24h',
    data_type: 'number',
    description: 'Price change over the last 24 hours, in percent',
    category: 'Market',
    example_value: '5.5',
    available_helpers: ['formatPercentage', 'default'],
  },
  {
    variable_name: 'holders',
    data_type: 'integer',
    description: 'Number of wallets holding the token',
    category: 'On-chain',
    example_value: '250000',
    available_helpers: ['formatNumber', 'default'],
  },
  {
    variable_name: 'trending_rank',
    data_type: 'integer',
    description: 'Position in the trending list (1 is the top)',
    category: 'On-chain',
    example_value: '1',
    available_helpers: ['default'],
  },
  {
    variable_name: 'timestamp',
    data_type: 'datetime',
    description: 'When the data was taken (ISO 8601 or Unix seconds)',
    category: 'General',
    example_value: '2026-11-22T09:40:00Z',
    available_helpers: ['formatTimeAgo', 'default'],
  },
  ...SCHEDULE_SOURCE_VARIABLES,
  ...ALERT_VARIABLES,
];
