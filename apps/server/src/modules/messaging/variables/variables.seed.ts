import type { VariableValues } from '@lumi/contract';

/** A variable of the catalogue: its name, type, description, example value and the helpers it suits. */
type VariableRow = [
  name: string,
  type: VariableValues['data_type'],
  description: string,
  example: string,
  helpers: VariableValues['available_helpers'],
];

/** The variables of one category, from their rows. */
function inCategory(category: string, rows: VariableRow[]): VariableValues[] {
  return rows.map(([variable_name, data_type, description, example_value, available_helpers]) => ({
    variable_name,
    data_type,
    description,
    category,
    example_value,
    available_helpers,
  }));
}

const LLM = 'Schedule: LLM usage yesterday';
const HEALTH = 'Schedule: bot health now';
const BUDGETS = 'Schedule: token budgets today';

/**
 * What each data source of a schedule gives a template (docs/bot-developers/deliveries.md, "Schedules";
 * schedule-data.ts computes them), so the editor offers them. Lists are for {{#each}}: their entries' fields
 * are in the description.
 */
export const SCHEDULE_SOURCE_VARIABLES: readonly VariableValues[] = [
  ...inCategory(LLM, [
    ['usage_date', 'string', 'The day reported (YYYY-MM-DD in LUMI_TIMEZONE)', '2026-11-24', ['default']],
    [
      'providers',
      'array',
      'Usage by provider: each has provider, tokens, cost (US dollars) and requests',
      '[{"provider":"openai","tokens":120000,"cost":1.8,"requests":42}]',
      [],
    ],
    [
      'total_tokens',
      'integer',
      'Tokens used that day by all providers',
      '120000',
      ['formatNumber', 'default'],
    ],
    [
      'total_cost',
      'number',
      'Cost of that day in US dollars',
      '1.8',
      ['formatCurrency', 'formatNumber', 'default'],
    ],
    [
      'total_requests',
      'integer',
      'LLM requests that day by all providers',
      '42',
      ['formatNumber', 'default'],
    ],
  ]),
  ...inCategory(HEALTH, [
    [
      'telegram_status',
      'string',
      "The bot's Telegram status from its latest heartbeat, or no_heartbeat",
      'connected',
      ['uppercase', 'default'],
    ],
    [
      'uptime_seconds',
      'integer',
      'Seconds since the bot started (0 without a recent heartbeat)',
      '86400',
      ['formatNumber', 'default'],
    ],
    ['uptime_hours', 'integer', 'Whole hours since the bot started', '24', ['formatNumber', 'default']],
    [
      'error_count_24h',
      'integer',
      'Errors the bot reported in the last 24 hours',
      '3',
      ['formatNumber', 'default'],
    ],
    ['active_lock_count', 'integer', 'Locks the bot holds now', '1', ['default']],
    ['active_locks', 'array', 'The locks the bot holds now, as its heartbeat lists them', '[]', []],
  ]),
  ...inCategory(BUDGETS, [
    ['budget_date', 'string', 'Today (YYYY-MM-DD in LUMI_TIMEZONE)', '2026-11-25', ['default']],
    [
      'budgets',
      'array',
      'Active budgets: each has provider, daily_token_limit, daily_cost_limit, tokens_used, cost_incurred, usage_percentage and exceeded',
      '[{"provider":"openai","tokens_used":50000,"usage_percentage":50,"exceeded":false}]',
      [],
    ],
    ['exceeded_count', 'integer', 'Active budgets at or over their limit today', '0', ['default']],
  ]),
];

/**
 * What an alert notification gives the `alert` template (docs/bot-developers/alerts.md, "Contact points";
 * alert-notifier.ts fills them in), so the editor offers them.
 */
export const ALERT_VARIABLES: readonly VariableValues[] = inCategory('Alerts', [
  [
    'alert_rule_name',
    'string',
    'The name of the alert rule',
    'Bot heartbeat',
    ['truncate', 'uppercase', 'default'],
  ],
  [
    'alert_severity',
    'string',
    "The rule's severity: warning or critical",
    'critical',
    ['uppercase', 'default'],
  ],
  [
    'alert_state',
    'string',
    "The rule's state now: ok, pending or firing",
    'firing',
    ['uppercase', 'default'],
  ],
  [
    'alert_kind',
    'string',
    'Why the message is sent: firing, renotify (still firing), resolved or test',
    'firing',
    ['uppercase', 'default'],
  ],
  [
    'alert_value',
    'number',
    'The measured value that caused it, in alert_unit (empty when there was no data)',
    '340',
    ['formatNumber', 'default'],
  ],
  ['alert_threshold', 'number', "The rule's threshold, in alert_unit", '60', ['formatNumber', 'default']],
  [
    'alert_unit',
    'string',
    'The unit of the value and threshold: s, min, count, usd, percent, ms or bool',
    's',
    ['default'],
  ],
  [
    'alert_summary',
    'string',
    'One sentence on what was measured',
    'No heartbeat for 340 s (threshold 60 s)',
    ['truncate', 'default'],
  ],
  [
    'alert_started_at',
    'datetime',
    'When the rule started firing (or pending), ISO 8601',
    '2026-11-26T09:40:00.000Z',
    ['formatTimeAgo', 'default'],
  ],
  [
    'alert_url',
    'string',
    'The rule in the console (LUMI_PUBLIC_URL)',
    'https://lumi.example.com/admin/alerts?rule=3',
    ['default'],
  ],
]);

/**
 * The catalogue a new installation starts with: the market variables the bot's messages use (spec section
 * 2, "Messages (/messages)": the Preview panel's sample data), those the schedules' data sources give
 * (docs/bot-developers/deliveries.md, "Schedules") and those of alert notifications
 * (docs/bot-developers/alerts.md, "Contact points"). The console's Preview and Test panels build their
 * sample JSON from these names and example values.
 */
export const SEEDED_VARIABLES: readonly VariableValues[] = [
  ...inCategory('Token', [
    ['token_name', 'string', 'Name of the token', 'Pepe', ['uppercase', 'lowercase', 'truncate', 'default']],
    [
      'token_address',
      'string',
      'Contract address of the token',
      '0x6982508145454Ce325dDbE47a25d4ec3d2311933',
      ['truncate', 'lowercase', 'uppercase', 'default'],
    ],
  ]),
  ...inCategory('Market', [
    [
      'price_usd',
      'number',
      'Price in US dollars',
      '0.00001234',
      ['formatCurrency', 'formatNumber', 'default'],
    ],
    [
      'market_cap',
      'number',
      'Market capitalisation in US dollars',
      '5200000000',
      ['formatNumber', 'formatCurrency', 'default'],
    ],
    [
      'volume_24h',
      'number',
      'Trading volume over the last 24 hours, in US dollars',
      '1500000',
      ['formatNumber', 'formatCurrency', 'default'],
    ],
    [
      'price_change_24h',
      'number',
      'Price change over the last 24 hours, in percent',
      '5.5',
      ['formatPercentage', 'default'],
    ],
  ]),
  ...inCategory('On-chain', [
    ['holders', 'integer', 'Number of wallets holding the token', '250000', ['formatNumber', 'default']],
    ['trending_rank', 'integer', 'Position in the trending list (1 is the top)', '1', ['default']],
  ]),
  ...inCategory('General', [
    [
      'timestamp',
      'datetime',
      'When the data was taken (ISO 8601 or Unix seconds)',
      '2026-11-22T09:40:00Z',
      ['formatTimeAgo', 'default'],
    ],
  ]),
  ...SCHEDULE_SOURCE_VARIABLES,
  ...ALERT_VARIABLES,
];
