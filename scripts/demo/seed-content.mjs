// What an operator would have set up in the console before the bot goes live: configuration items in every
// domain, the template variables with example values, two channels with forum topics and a template of each
// message type, and two alert rules that tell the team's chat. The demo enters them through the public API
// on its first run (scripts/demo.mjs), so a new user finds every screen filled, and the templates render
// with the variables' examples in Preview.

/** Configuration items by domain (`/api/admin/api/config/{domain}`); content is JSON or plain text. */
export const CONFIG_ITEMS = {
  personalities: [
    {
      name: 'Lumi (default)',
      description: 'The voice the bot uses unless a chat picks another one.',
      content: {
        tone: 'warm, curious, a little playful',
        formality: 'casual',
        emoji_rate: 0.2,
        system_prompt:
          'You are Lumi, a friendly market companion. Explain what moved and why in plain words, never give financial advice, and admit when you do not know.',
      },
      tags: ['default', 'voice'],
      priority: 10,
    },
    {
      name: 'Analyst',
      description: 'Terse and numbers-first, for the trading-desk channel.',
      content: {
        tone: 'precise, neutral',
        formality: 'formal',
        emoji_rate: 0,
        system_prompt:
          'Answer with figures first: price, 24 h change, volume, liquidity. One sentence of context at most.',
      },
      tags: ['trading'],
      priority: 5,
    },
    {
      name: 'Night owl',
      description: 'A calmer voice for the quiet hours; switched on when needed.',
      content: { tone: 'calm, low-key', formality: 'casual', emoji_rate: 0.05 },
      is_active: false,
      tags: ['experiment'],
      priority: 1,
    },
  ],
  'feature-flags': [
    {
      name: 'price_alerts',
      description: 'Post an alert when a watched token moves more than the threshold within an hour.',
      content: { enabled: true, threshold_percent: 8, cooldown_minutes: 30 },
      tags: ['alerts'],
      priority: 10,
    },
    {
      name: 'daily_digest',
      description: "Send the morning digest of yesterday's market to the news channel.",
      content: { enabled: true, send_at: '08:00', timezone: 'UTC' },
      tags: ['digest'],
      priority: 5,
    },
    {
      name: 'vision_replies',
      description:
        'Let the bot answer screenshots with gemini-pro-vision (costly: off until the budget allows).',
      content: { enabled: false, max_images_per_hour: 20 },
      is_active: false,
      tags: ['llm', 'cost'],
      priority: 1,
    },
  ],
  quirks: [
    {
      name: 'Moon emoji on new highs',
      description: 'Adds 🌕 when a token reaches a new all-time high.',
      content: { trigger: 'all_time_high', append: ' 🌕' },
      tags: ['fun'],
      priority: 3,
    },
    {
      name: 'Signs off with a tip',
      description: 'Ends long answers with one short risk reminder.',
      content: 'End answers longer than five sentences with: "Not financial advice; size your positions."',
      tags: ['safety'],
      priority: 5,
    },
  ],
  moods: [
    {
      name: 'Bullish',
      description: 'When the market is up more than 5 % over a day.',
      content: { when: { market_change_24h_gt: 5 }, style: 'upbeat', emoji: ['🚀', '📈'] },
      tags: ['market'],
      priority: 5,
    },
    {
      name: 'Cautious',
      description: 'When the market is down more than 5 % or volatility spikes.',
      content: { when: { market_change_24h_lt: -5 }, style: 'measured', emoji: ['🧊'] },
      tags: ['market'],
      priority: 5,
    },
    {
      name: 'Neutral',
      description: 'Everything in between.',
      content: { when: 'otherwise', style: 'even', emoji: [] },
      tags: ['market', 'default'],
      priority: 1,
    },
  ],
  catchphrases: [
    {
      name: 'Greeting',
      description: 'First line when someone starts a chat.',
      content: 'gm! Lumi here: ask me about any token, or type /digest for the day so far.',
      tags: ['onboarding'],
      priority: 5,
    },
    {
      name: 'Out of budget',
      description: "What the bot says when today's LLM budget is used up.",
      content: "I've talked a lot today and need to rest my circuits. Back tomorrow with fresh takes!",
      tags: ['budget'],
      priority: 5,
    },
  ],
  memories: [
    {
      name: 'Community rules',
      description: 'What the bot reminds people of when a chat gets heated.',
      content: { rules: ['No shilling', 'No DMs asking for keys', 'Be kind to newcomers'] },
      tags: ['moderation'],
      priority: 5,
    },
    {
      name: 'Launch day',
      description: 'The community launched on 2024-03-14; the bot mentions it on anniversaries.',
      content: { date: '2024-03-14', note: 'First 1,000 members joined within a day.' },
      tags: ['history'],
      priority: 1,
    },
  ],
  'response-styles': [
    {
      name: 'Short answer',
      description: 'Default for group chats: three sentences at most.',
      content: { max_sentences: 3, bullet_points: false, include_sources: false },
      tags: ['group'],
      priority: 10,
    },
    {
      name: 'Deep dive',
      description: 'For /explain: structured, with sources.',
      content: { max_sentences: 12, bullet_points: true, include_sources: true },
      tags: ['command'],
      priority: 5,
    },
  ],
  tasks: [
    {
      name: 'Refresh watchlist prices',
      description: 'Polls prices for the watchlist and feeds the alert checks.',
      content: { schedule: '*/1 * * * *', source: 'birdeye', watchlist: ['SOL', 'JUP', 'BONK', 'WIF'] },
      tags: ['market'],
      priority: 10,
    },
    {
      name: 'Morning digest',
      description: 'Builds and posts the daily digest.',
      content: { schedule: '0 8 * * *', template: 'Daily market digest', channel: 'Lumi News' },
      tags: ['digest'],
      priority: 5,
    },
  ],
};

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

/** The team's own chat, where Lumi's alerts about the bot go (not the community's channels above). */
export const OPS_CHANNEL = {
  channel_name: 'Lumi Ops',
  chat_id: '-1002200457113',
  description: "The team's private chat: Lumi's alerts about the bot.",
};

/** A Telegram contact point on the Ops channel, with the `alert` template the server creates. */
export const CONTACT_POINT_NAME = 'Ops chat';

/**
 * The two rules the demo ships (docs/bot-developers/alerts.md), both telling the Ops chat: the Gemini budget (DEMO_BUDGETS in
 * demo/simulated-bot.mjs) at 80 % today, and the bot's heartbeat missing for 90 s, which the simulated
 * bot's live outage makes fire and then resolve (planOutage).
 */
export const ALERT_RULES = [
  {
    name: 'Token budget at 80 %',
    condition: { type: 'budget_usage', provider: 'gemini', percent: 80 },
    severity: 'warning',
    pending_seconds: 0,
    no_data: 'ok',
    renotify_minutes: 0,
    // The day's end resolves it, which is no news.
    notify_on_resolve: false,
    enabled: true,
  },
  {
    name: 'Bot heartbeat missing',
    condition: { type: 'heartbeat_missing', seconds: 90 },
    severity: 'critical',
    pending_seconds: 0,
    // A bot that has never reported is not running either.
    no_data: 'alerting',
    renotify_minutes: 60,
    notify_on_resolve: true,
    enabled: true,
  },
];

const CONFIG_PATH = '/api/admin/api/config';
const MESSAGING_PATH = '/api/v1/messaging';
const ALERTS_PATH = '/api/alerts';

/**
 * Enters the content above through the API as `token`'s user. Each part is skipped when the console
 * already has some of it (an operator's own; variables one by one, by name), so a second run never
 * duplicates or overwrites anything.
 * Returns what it added, for the demo's set-up line.
 */
export async function seedContent(api, token) {
  const get = (path) => api.request('GET', path, { token });
  const post = (path, body) => api.request('POST', path, { token, body });
  const made = [];

  let items = 0;
  for (const [domain, list] of Object.entries(CONFIG_ITEMS)) {
    if ((await get(`${CONFIG_PATH}/${domain}`)).length > 0) continue;
    for (const item of list) {
      await post(`${CONFIG_PATH}/${domain}`, item);
      items += 1;
    }
  }
  if (items) made.push(`${items} configuration items`);

  const known = new Set((await get(`${MESSAGING_PATH}/variables`)).map((v) => v.variable_name));
  const missing = VARIABLES.filter((v) => !known.has(v.variable_name));
  for (const variable of missing) await post(`${MESSAGING_PATH}/variables`, variable);
  if (missing.length) made.push(`${missing.length} template variables`);

  if ((await get(`${MESSAGING_PATH}/channels`)).length === 0) {
    const topicIds = new Map();
    const channelIds = new Map();
    for (const { topics, ...channel } of CHANNELS) {
      const created = await post(`${MESSAGING_PATH}/channels`, channel);
      channelIds.set(channel.channel_name, created.id);
      for (const topic of topics) {
        const t = await post(`${MESSAGING_PATH}/channels/${created.id}/topics`, topic);
        topicIds.set(`${channel.channel_name}/${topic.topic_name}`, t.id);
      }
    }
    for (const { channel, topic, ...template } of TEMPLATES) {
      await post(`${MESSAGING_PATH}/templates`, {
        ...template,
        channel_id: channelIds.get(channel),
        topic_id: topicIds.get(`${channel}/${topic}`) ?? null,
      });
    }
    made.push(`${CHANNELS.length} channels with topics, ${TEMPLATES.length} templates`);
  }
  return made;
}

/**
 * Enters the alert rules above through the API as `token`'s user, with the Ops chat contact point (and its
 * channel, each made unless one of that name exists). Skipped when the console already has rules: an
 * operator's own, or the demo's from an earlier run. Returns what it added.
 */
export async function seedAlerts(api, token) {
  const get = (path) => api.request('GET', path, { token });
  const post = (path, body) => api.request('POST', path, { token, body });
  const made = [];

  if ((await get(`${ALERTS_PATH}/rules`)).rules.length > 0) return made;
  const points = (await get(`${ALERTS_PATH}/contact-points`)).contact_points;
  let point = points.find((p) => p.name === CONTACT_POINT_NAME);
  if (!point) {
    const channels = await get(`${MESSAGING_PATH}/channels`);
    let channel = channels.find((c) => c.channel_name === OPS_CHANNEL.channel_name);
    if (!channel) {
      channel = await post(`${MESSAGING_PATH}/channels`, OPS_CHANNEL);
      made.push(`channel ${OPS_CHANNEL.channel_name}`);
    }
    point = await post(`${ALERTS_PATH}/contact-points`, {
      name: CONTACT_POINT_NAME,
      type: 'telegram',
      channel_id: channel.id,
    });
    made.push(`contact point ${CONTACT_POINT_NAME}`);
  }
  for (const rule of ALERT_RULES) {
    await post(`${ALERTS_PATH}/rules`, { ...rule, contact_point_ids: [point.id] });
  }
  made.push(`${ALERT_RULES.length} alert rules`);
  return made;
}
