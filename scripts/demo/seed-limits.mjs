// The limits the demo ships (docs/operators/limits.md), entered through the public API once the back-fill is
// done (scripts/demo.mjs): what a team would set for the demo bot's few hundred chats and users, sized so
// that its busiest chat and user come near them (demo/simulated-bot.mjs draws them with Zipf weights).
import { chatIdOf, userIdOf } from './simulated-bot.mjs';

/** Each chat's spend a day (soft: the busiest group passes it), each user's pace (hard), a feature's tokens. */
export const LIMITS = [
  {
    scope: 'each_chat',
    metric: 'cost_usd',
    window: 'day',
    amount: 1.5,
    mode: 'soft',
    note: 'Tells us when a chat costs more than its share; the busiest group gets near it most days.',
  },
  {
    scope: 'each_user',
    metric: 'requests',
    window: 'minute',
    amount: 5,
    mode: 'hard',
    note: 'No one talks to the bot this fast by hand: a script or a stuck key.',
  },
  {
    scope: 'feature',
    subject: 'digest',
    metric: 'tokens',
    window: 'day',
    amount: 3_000_000,
    mode: 'soft',
  },
  {
    scope: 'user',
    subject: userIdOf(0),
    metric: 'cost_usd',
    window: 'month',
    amount: 60,
    mode: 'hard',
    note: 'Our heaviest user: agreed with them in the support chat.',
  },
];

/** A ban with an end, and the team's own test chat that no limit applies to. */
export const ACCESS_RULES = [
  {
    action: 'ban',
    subject_kind: 'user',
    subject: userIdOf(449),
    reason: 'Prompt-injection spam sent to the summarizer',
    expires_in_days: 7,
  },
  {
    action: 'allow',
    subject_kind: 'chat',
    subject: chatIdOf(299),
    reason: "The team's test group: load tests run here",
    expires_in_days: null,
  },
];

const LIMITS_PATH = '/api/limits';

/**
 * Enters the limits and access rules above through the API as `token`'s user. Skipped when the console
 * already has limits: an operator's own, or the demo's from an earlier run. Returns what it added.
 */
export async function seedLimits(api, token) {
  const get = (path) => api.request('GET', path, { token });
  const post = (path, body) => api.request('POST', path, { token, body });
  if ((await get(LIMITS_PATH)).limits.length > 0) return [];
  for (const limit of LIMITS) await post(LIMITS_PATH, limit);
  for (const { expires_in_days: days, ...rule } of ACCESS_RULES) {
    const expires = days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString();
    await post(`${LIMITS_PATH}/access-rules`, { ...rule, expires_at: expires });
  }
  return [`${LIMITS.length} limits`, `${ACCESS_RULES.length} access rules`];
}
