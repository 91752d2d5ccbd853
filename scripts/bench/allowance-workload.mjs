// The workload of part `allowance` of `npm run bench` (scripts/bench/allowance.mjs), shared by its loader
// (load-allowance-data.ts) and the requests it sends: who the chats and users are, which limits there are,
// and whose usage is over which of them. Limits apply as docs/operators/limits.md says: a chat's own limit
// replaces the each-chat default of the same metric and window.
import { seededRandom } from '@lumi/test-support/seeded-random';

/** @typedef {import('@lumi/contract').LimitScope} LimitScope */
/** @typedef {import('@lumi/contract').LimitMetric} LimitMetric */
/** @typedef {import('@lumi/contract').LimitWindow} LimitWindow */
/**
 * A limit as POST /api/limits takes it.
 * @typedef {object} SharedLimit
 * @property {LimitScope} scope
 * @property {string | null} subject
 * @property {LimitMetric} metric
 * @property {LimitWindow} window
 * @property {number} amount
 * @property {import('@lumi/contract').LimitMode} mode
 */

/** The bot's features; every request names one, in turn. */
export const FEATURES = ['chat', 'summarize', 'translate', 'image-caption', 'search'];

/** Chat `i` (0 ≤ i < chats) is the supergroup -100(1,000,000,000 + i): ids of one width, in order. */
export const CHAT_BASE = 1_000_000_000;
export const chatId = (i) => `-100${CHAT_BASE + i}`;
/** User `u` is 100,000,000 + u. */
export const USER_BASE = 100_000_000;
export const userId = (u) => String(USER_BASE + u);

/**
 * The usage loaded (load-allowance-data.ts), one row per chat and per user in an hour of the current month
 * (UTC), and one per feature and hour:
 * - chat i: 1 + i % 19 requests of 800 tokens each; (i % 97) / 200 USD, except one chat in 50 (i % 50 = 7),
 *   which spent 2 USD in the current hour;
 * - user u: 1 + u % 50 requests of 1,000 tokens each, except one user in 20 (u % 20 = 3) with 500,000 tokens;
 * - each feature: 10,000 requests, 8,000,000 tokens and 8 USD an hour.
 */
export const OVER_DAY_CHAT = { every: 50, at: 7 };
export const OVER_MONTH_USER = { every: 20, at: 3 };

/**
 * The limits on each chat, each user and the features (scope, subject, metric, window, amount, mode). The
 * last is created through the API once the server runs (allowance.mjs), the others are loaded with SQL.
 * - Each chat: 1 USD a day (hard; the chats that spent 2 USD are over it) and 10 requests a minute.
 * - Each user: 200,000 tokens a month (soft; the users loaded with 500,000 are over it, so their calls are
 *   admitted and recorded as over a soft limit) and 100 requests an hour (hard).
 * - Features: `summarize` is over its soft monthly tokens; the others have room.
 * @type {SharedLimit[]}
 */
export const SHARED_LIMITS = [
  { scope: 'each_chat', subject: null, metric: 'cost_usd', window: 'day', amount: 1, mode: 'hard' },
  { scope: 'each_chat', subject: null, metric: 'requests', window: 'minute', amount: 10, mode: 'hard' },
  { scope: 'each_user', subject: null, metric: 'tokens', window: 'month', amount: 200_000, mode: 'soft' },
  { scope: 'each_user', subject: null, metric: 'requests', window: 'hour', amount: 100, mode: 'hard' },
  { scope: 'feature', subject: 'chat', metric: 'cost_usd', window: 'day', amount: 100_000, mode: 'hard' },
  { scope: 'feature', subject: 'chat', metric: 'tokens', window: 'hour', amount: 1e9, mode: 'soft' },
  { scope: 'feature', subject: 'summarize', metric: 'tokens', window: 'month', amount: 1e6, mode: 'soft' },
  {
    scope: 'feature',
    subject: 'translate',
    metric: 'requests',
    window: 'minute',
    amount: 1e6,
    mode: 'hard',
  },
  {
    scope: 'feature',
    subject: 'image-caption',
    metric: 'cost_usd',
    window: 'month',
    amount: 1e6,
    mode: 'hard',
  },
  { scope: 'feature', subject: 'search', metric: 'requests', window: 'hour', amount: 1e8, mode: 'hard' },
];

/**
 * The chats with limits of their own: `count` of the `chats`, evenly spaced. The k-th is chat
 * k × ⌊chats / count⌋.
 */
export const limitedChat = (k, chats, count) => k * Math.floor(chats / count);

/**
 * The k-th chat's own limit, in turn: its cost a day (0.25 to 2 USD), its tokens a month (5,000 to 23,000;
 * the loaded usage is 800 to 15,200) or 30 requests an hour, all hard: some of them are over theirs.
 * @returns {{ metric: LimitMetric, window: LimitWindow, amount: number }}
 */
export function chatLimit(k) {
  switch (k % 3) {
    case 0:
      return { metric: 'cost_usd', window: 'day', amount: 0.25 * (1 + (k % 8)) };
    case 1:
      return { metric: 'tokens', window: 'month', amount: 5_000 + 2_000 * (k % 10) };
    default:
      return { metric: 'requests', window: 'hour', amount: 30 };
  }
}

/**
 * A deterministic source of the requests' bodies (a seeded generator), so every run asks the same: a chat out of all
 * (one in ten among those with limits of their own), a user, and the features in turn.
 */
export function allowanceBodies({ chats, users, limits, seed = 1 }) {
  const own = limits - SHARED_LIMITS.length;
  const random = seededRandom(seed);
  let n = 0;
  return () => {
    const chat =
      random() < 0.1 ? limitedChat(Math.floor(random() * own), chats, own) : Math.floor(random() * chats);
    const body = {
      chat_id: chatId(chat),
      user_id: userId(Math.floor(random() * users)),
      feature: FEATURES[n % FEATURES.length],
    };
    n += 1;
    return JSON.stringify(body);
  };
}
