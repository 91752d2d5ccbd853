// The alert rules the demo ships and the team's chat they tell (docs/bot-developers/alerts.md), entered
// through the public API once the back-fill is done (scripts/demo.mjs).

/** The team's own chat, where Lumi's alerts about the bot go (not the community's channels of seed-messaging.mjs). */
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

const MESSAGING_PATH = '/api/v1/messaging';
const ALERTS_PATH = '/api/alerts';

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
