// The messaging content the demo enters on its first run (seed-content.mjs): the template variables with
// example values, two channels with forum topics and a template of each message type, which render with
// the variables' examples in Preview.

/**
 * Variables the templates below use beyond those every console starts with (token_name, price_usd,
 * price_change_24h, market_cap, volume_24h, holders, timestamp …), with the examples Preview fills in.
 */
export const VARIABLES = [
  {
    variable_name: 'token_symbol',
    data_type: 'string',
    category: 'Token',
    example_value: 'PEPE',
    description: 'Ticker symbol',
    available_helpers: ['uppercase', 'lowercase'],
  },
  {
    variable_name: 'headline',
    data_type: 'string',
    category: 'Digest',
    example_value: 'Memecoins lead a broad rally as volumes climb',
    description: "The digest's one-line summary",
    available_helpers: ['truncate'],
  },
  {
    variable_name: 'top_movers',
    data_type: 'array',
    category: 'Digest',
    example_value: JSON.stringify([
      { symbol: 'JUP', change: 14.2 },
      { symbol: 'BONK', change: 9.7 },
      { symbol: 'WIF', change: -6.1 },
    ]),
    description: 'The biggest movers of the period: symbol and change in percent',
  },
  {
    variable_name: 'announcement',
    data_type: 'string',
    category: 'General',
    example_value: 'The bot will be updated on Friday at 14:00 UTC; expect a few minutes of silence.',
    description: 'Free text for announcements',
  },
];

/** Two channels, each with forum topics (`/api/v1/messaging/channels`). */
export const CHANNELS = [
  {
    channel_name: 'Lumi Alerts',
    chat_id: '-1002145839201',
    description: 'Price alerts and the live dashboard for the trading community.',
    topics: [
      { topic_name: 'Price alerts', message_thread_id: 12 },
      { topic_name: 'Dashboard', message_thread_id: 15 },
    ],
  },
  {
    channel_name: 'Lumi News',
    chat_id: '@lumi_news',
    description: 'Digests and announcements for everyone.',
    topics: [
      { topic_name: 'Daily digest', message_thread_id: 3 },
      { topic_name: 'Announcements', message_thread_id: 7 },
    ],
  },
];

/** One template of each message type, by channel and topic name; the content is Telegram HTML. */
export const TEMPLATES = [
  {
    template_name: 'Market dashboard',
    message_type: 'dashboard',
    channel: 'Lumi Alerts',
    topic: 'Dashboard',
    description: 'Pinned summary refreshed every 15 minutes.',
    allow_pinning: true,
    pin_by_default: true,
    disable_notification: true,
    template_content: [
      '<b>📊 {{token_name}} ({{token_symbol}})</b>',
      '',
      'Price: <b>{{formatCurrency price_usd}}</b> ({{formatPercentage price_change_24h}} 24 h)',
      'Market cap: ${{formatNumber market_cap}}',
      'Volume 24 h: ${{formatNumber volume_24h}}',
      'Holders: {{formatNumber holders}}',
      '',
      '<i>Updated {{formatTimeAgo timestamp}}</i>',
    ].join('\n'),
  },
  {
    template_name: 'Price alert',
    message_type: 'alert',
    channel: 'Lumi Alerts',
    topic: 'Price alerts',
    description: 'Sent when price_alerts sees a move beyond its threshold.',
    template_content: [
      '{{#if price_change_24h}}🚨 <b>{{uppercase token_symbol}}</b> moved {{formatPercentage price_change_24h}}{{/if}}',
      '',
      'Now at <b>{{formatCurrency price_usd}}</b>, volume ${{formatNumber volume_24h}}.',
      '<a href="https://birdeye.so/token/{{token_symbol}}">Chart on Birdeye</a>',
    ].join('\n'),
  },
  {
    template_name: 'Daily market digest',
    message_type: 'digest',
    channel: 'Lumi News',
    topic: 'Daily digest',
    description: 'The morning digest posted by the Morning digest task.',
    disable_web_preview: true,
    template_content: [
      '<b>☀️ gm! {{headline}}</b>',
      '',
      '<b>Top movers</b>',
      '{{#each top_movers}}• {{symbol}}: {{formatPercentage change}}',
      '{{/each}}',
      '{{token_symbol}} closed at {{formatCurrency price_usd}} ({{formatPercentage price_change_24h}}).',
    ].join('\n'),
  },
  {
    template_name: 'Maintenance notice',
    message_type: 'custom',
    channel: 'Lumi News',
    topic: 'Announcements',
    description: 'A free-form announcement.',
    template_content: '<b>📣 Announcement</b>\n\n{{announcement}}\n\n<i>— the Lumi team</i>',
  },
];
