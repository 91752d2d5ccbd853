// When things happen to the simulated bot (simulated-bot.mjs): time cut into 5-second slots, how busy each
// hour is, the incidents of its history, the live outage the demo stages, its restarts and the slots in
// which it logs an error outside an incident. Everything drawn is seeded by the time, so it never changes.
import { integer, seeded } from './seeded-draws.mjs';

export const SLOT_MS = 5000;
export const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
export const SLOTS_PER_MINUTE = MINUTE_MS / SLOT_MS;
/** The heartbeat, market data and cache reports each come once in this many slots (30 s), staggered. */
export const REPORT_EVERY_SLOTS = 6;

export const slotOf = (ms) => Math.floor(ms / SLOT_MS);

/**
 * How busy the bot is: a daily rhythm (quiet around 04:00 UTC, busiest around 16:00), calmer weekends,
 * and each hour a little above or below the curve.
 */
export function activity(ms) {
  const date = new Date(ms);
  const hour = date.getUTCHours() + date.getUTCMinutes() / 60;
  const daily = 0.3 + 0.7 * (0.5 - 0.5 * Math.cos((2 * Math.PI * (hour - 4)) / 24));
  const weekend = [0, 6].includes(date.getUTCDay()) ? 0.75 : 1;
  const noise = 0.85 + 0.3 * seeded(`hour:${Math.floor(ms / HOUR_MS)}`)();
  return daily * weekend * noise;
}

/**
 * The errors the bot logs outside an incident: one in each 4 hours, in a slot drawn for it. Any 24 hours
 * then hold 5 to 7, below the 10 in 24 hours a healthy bot stays under (spec section 9, isBotHealthy in
 * apps/web/src/features/metrics/lib/thresholds.ts).
 */
const ERROR_PERIOD_SLOTS = (4 * HOUR_MS) / SLOT_MS;
export function isLoggedErrorSlot(slot) {
  const period = Math.floor(slot / ERROR_PERIOD_SLOTS);
  const drawn = Math.floor(seeded(`logged-error:${period}`)() * ERROR_PERIOD_SLOTS);
  return slot === period * ERROR_PERIOD_SLOTS + drawn;
}

/**
 * Incidents, a few a week at fixed times: Gemini overloaded (more failed calls, slower), a Birdeye outage,
 * and the market data websocket dropping for a while; the first two log errors by the dozen. None falls
 * in the `quietAfter` period, so the console opens on a healthy bot.
 */
export function incidentsAt(ms, quietAfter) {
  if (ms >= quietAfter) return { gemini: false, birdeye: false, feed: null };
  const day = Math.floor(ms / DAY_MS);
  const random = seeded(`incidents:${day}`);
  const window = (startHour, minutes) => {
    const start = day * DAY_MS + startHour * HOUR_MS;
    return ms >= start && ms < start + minutes * MINUTE_MS ? start : null;
  };
  const geminiDay = random() < 0.5;
  const geminiHour = integer(random, [8, 20]);
  const birdeyeDay = random() < 0.4;
  const birdeyeHour = integer(random, [0, 22]);
  const feedDay = random() < 0.35;
  const feedHour = integer(random, [0, 22]);
  return {
    gemini: geminiDay && window(geminiHour, 45) !== null,
    birdeye: birdeyeDay && window(birdeyeHour, 30) !== null,
    feed: feedDay ? window(feedHour, 20) : null,
  };
}

/**
 * How far back from its start the demo's history has no incident: the Overview judges the last 24 whole
 * hours (errors, integrations, cache), so it opens on "All systems operational", with an hour to spare;
 * the incidents show in the days before (the Metrics screens' 7 days).
 */
export const QUIET_MS = 25 * HOUR_MS;

/** How long after the demo goes live its bot goes down, and for how long (planOutage). */
const OUTAGE_AFTER_MS = 2 * MINUTE_MS;
export const OUTAGE_MS = 3 * MINUTE_MS;

/**
 * The live incident (the demo's bot heartbeat alert fires; docs/demo.md): a deploy that hangs, so the bot
 * reports nothing and sends nothing from `from` to `to` (slots), then restarts. It begins in the first
 * slot after a heartbeat at least OUTAGE_AFTER_MS past `ms` and ends on a heartbeat slot, so no heartbeat
 * comes for the whole span of about OUTAGE_MS; a heartbeat rule of 90 s then fires in its second minute.
 */
export function planOutage(ms) {
  const earliest = slotOf(ms + OUTAGE_AFTER_MS);
  const from = earliest + ((REPORT_EVERY_SLOTS + 1 - (earliest % REPORT_EVERY_SLOTS)) % REPORT_EVERY_SLOTS);
  // OUTAGE_MS is a whole number of report periods, so `to`, one slot short of it, is a heartbeat slot.
  return { from, to: from + OUTAGE_MS / SLOT_MS - 1 };
}

export const isDown = (slot, outage) => outage !== undefined && slot >= outage.from && slot < outage.to;

/**
 * The bot restarts (a deploy) every 53 hours, and once more at the end of an outage; heartbeats report
 * the time of the latest restart.
 */
const RESTART_EVERY_MS = 53 * HOUR_MS;
export function startedAt(ms, outage) {
  const deploy = Math.floor(ms / RESTART_EVERY_MS) * RESTART_EVERY_MS + 7000;
  const restart = outage && ms >= outage.to * SLOT_MS ? outage.to * SLOT_MS : 0;
  return new Date(Math.max(deploy, restart)).toISOString();
}
