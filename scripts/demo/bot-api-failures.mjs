// The demo's fake Telegram Bot API fails now and then on purpose (@lumi/test-support/fake-bot-api, option
// `failures`), as the real one does, so the console has a retried, a rate-limited and a failed delivery
// to show, and the failed one to retry. Only the demo asks for this: the benchmark's fake never fails.
//
// Which message fails is decided by its number at the fake (retries count), so every run fails the same
// way. Failures are rare enough that the demo's own messages (a price alert every 10 s, the dashboard every
// minute) nearly all go out on their first try, and that Lumi's sends, which the Integrations panel counts
// as the `telegram` service beside the bot's own calls, stay above its 99 % green
// (apps/web/src/features/metrics/lib/thresholds.ts): the Overview still says "All systems operational".
import { forbidden, serverError, tooManyRequests } from '@lumi/test-support/fake-bot-api';
import { OPS_CHANNEL } from './seed-alerts.mjs';
import { CHANNELS } from './seed-messaging.mjs';

/**
 * The 429's retry_after. Lumi's sender does not wait within a send: it records the attempt as rate limited
 * and pauses every send of the bot this long (delivery-dispatch.ts), so it is kept short.
 */
export const RETRY_AFTER_SECONDS = 5;

/** The chat whose bot was kicked now and then: Lumi Alerts, where the demo's own messages go. */
const KICKED_FROM = CHANNELS.find((channel) => channel.channel_name === 'Lumi Alerts').chat_id;

/** The kinds, in turn; `chat` limits one to messages for that chat (a later one waits for the next). */
const KINDS = [
  {
    chat: KICKED_FROM,
    answer: () => forbidden('Forbidden: bot was kicked from the supergroup chat'),
  },
  { answer: () => serverError(500, 'Internal Server Error') },
  { answer: () => tooManyRequests(RETRY_AFTER_SECONDS) },
];
/**
 * The n-th messages that fail: one of each kind within the first quarter of an hour or so, then one in
 * EVERY (one every 17 minutes or so at the demo's 7 messages a minute). Spaced so that even on a short
 * history (DEMO_HISTORY_HOURS=1) Lumi's sends keep the telegram service above 99 % in most runs.
 */
const FIRST = [5, 40, 80];
const EVERY = 120;
const failsAt = (n) => FIRST.includes(n) || (n > FIRST.at(-1) && (n - FIRST.at(-1)) % EVERY === 0);

/** The `failures` option of FakeBotApi.start for the demo: (message, n) => a Bot API refusal or null. */
export function demoBotApiFailures() {
  let made = 0;
  let due = null;
  return ({ chat_id: chatId }, n) => {
    if (failsAt(n)) {
      due = KINDS[made % KINDS.length];
      made += 1;
    }
    if (!due || (due.chat !== undefined && due.chat !== chatId)) return null;
    const failure = due.answer();
    due = null;
    return failure;
  };
}

const CHAT_NAMES = new Map(
  [...CHANNELS, OPS_CHANNEL].map((channel) => [channel.chat_id, channel.channel_name]),
);

/** One line on a message the fake refused on purpose: what it answered and what Lumi does about it. */
export function describeRefusal({ chat_id: chatId, error_code: code, description, retry_after: retryAfter }) {
  const chat = CHAT_NAMES.get(chatId) ?? chatId;
  const what = `The fake Bot API answered ${code} (${description}) to a message for ${chat}, on purpose`;
  if (code === 429)
    return `${what}: Lumi pauses sending for ${retryAfter} s, then sends it (its attempt shows Rate limited).`;
  if (code >= 500) return `${what}: Lumi tries it again in a few seconds.`;
  return `${what}: the delivery failed; Retry in Messages > Deliveries sends it again.`;
}
