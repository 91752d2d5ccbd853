// `npm run demo`: the console exactly as `npm start` runs it, on a data directory of its own (./data-demo
// unless DATA_DIR is set), and beside it a simulated bot that talks to it only over HTTP: it gets an API
// key for itself, back-fills 7 days of history (or DEMO_HISTORY_HOURS hours: the end-to-end test takes 1,
// to be live within seconds), then reports live events every few seconds and asks Lumi to send a message
// now and then (POST /api/v1/messaging/deliveries). Those go to a demo-only fake Telegram Bot API on this
// machine (@lumi/test-support/fake-bot-api, with Telegram's 30 messages a second limit): the server gets a fake
// TELEGRAM_BOT_TOKEN and TELEGRAM_API_BASE_URL pointing at it, so nothing ever reaches the real Telegram.
// The fake fails a message now and then on purpose (demo/bot-api-failures.mjs: a 403, a 500, a 429), so
// the delivery log has failed, retried and rate-limited deliveries.
// Once live it sets up two alert rules, then goes down for a few minutes so the heartbeat one fires.
// Ctrl+C (SIGINT) or SIGTERM stops the bot, the server and the fake Bot API.
import { randomBytes } from 'node:crypto';
import { buildStale, serverEntry } from './lib/build-stale.mjs';
import { createProgress } from './lib/progress.mjs';
import { FakeBotApi, preciseNow } from '@lumi/test-support/fake-bot-api';
import { checkPortFree, NodeProcess } from '@lumi/test-support/server-process';
import { demoBotApiFailures } from './demo/bot-api-failures.mjs';
import { reportLive, sendSlots } from './demo/bot-sender.mjs';
import { planOutage, QUIET_MS, SLOT_MS, slotOf } from './demo/bot-timeline.mjs';
import { createLiveStatus, sayRunning } from './demo/live-status.mjs';
import { fmt, say } from './demo/print.mjs';
import { botApiKey, readState, setUpRulesAndLimits } from './demo/set-up.mjs';
import { api, dataDir, historyHours, historySpan, host, port, shownDir, username } from './demo/settings.mjs';
import { DemoStop, sleep, stopping } from './demo/stopping.mjs';

const LIVE_EVERY_MS = 5000;
// A well-formed token the fake Bot API accepts; Telegram would not.
const FAKE_BOT_TOKEN = '123456:demo-not-a-real-token';
// Short, so the demo's alerts fire and resolve within seconds of their condition.
const ALERT_EVALUATION_SECONDS = '10';

const env = process.env;
let server = null;
let fakeBotApi = null;

async function shutdown(signal, code = 0) {
  if (stopping.signal.aborted) return;
  stopping.abort();
  process.stderr.write('\n');
  if (server) {
    say(`Stopping the demo bot and the server (${signal})…`);
    await server.stop(signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT', 15_000);
  }
  await fakeBotApi?.close();
  say(
    `Demo stopped. Its data stays in ${shownDir}: \`npm run demo\` continues it, deleting the folder starts over.`,
  );
  process.exit(code);
}

async function main() {
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  if (!Number.isInteger(historyHours) || historyHours < 1)
    throw new Error(
      `DEMO_HISTORY_HOURS must be a whole number of hours from 1 up, not '${env.DEMO_HISTORY_HOURS}'.`,
    );

  const demoDatabase = env.DEMO_DATABASE_URL;
  say(`Lumi Admin demo: its data lives in ${shownDir}, apart from your real data (set DATA_DIR to move it).`);
  if (env.DATABASE_URL && !demoDatabase) {
    say('DATABASE_URL is ignored here, so the demo never writes into a real database; the demo uses SQLite');
    say(`in ${shownDir}. To run it on PostgreSQL, give it a database of its own in DEMO_DATABASE_URL.`);
  }

  const state = readState();
  const password = env.LUMI_ADMIN_PASSWORD || state?.password || randomBytes(18).toString('base64url');
  await checkPortFree(port, host);
  // `npm run lighthouse` measures the build it is given and must not rebuild it under the others' feet.
  if (env.DEMO_SKIP_BUILD !== '1') buildStale();
  fakeBotApi = await FakeBotApi.start({ limit: true, failures: demoBotApiFailures(), clock: preciseNow });
  say(`Fake Telegram Bot API (demo only, not Telegram: nothing leaves this machine) at ${fakeBotApi.url}.`);
  say(`Starting the console (on a new database, the first admin '${username}' gets the demo's password).`);
  server = await NodeProcess.start(serverEntry, {
    healthUrl: `${api.baseUrl}/api/health`,
    stdio: 'inherit',
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: demoDatabase ?? '',
      LUMI_ADMIN_PASSWORD: password,
      ALERT_EVALUATION_SECONDS: env.ALERT_EVALUATION_SECONDS || ALERT_EVALUATION_SECONDS,
      // Whatever the shell holds, the demo's server sends only to the fake.
      TELEGRAM_BOT_TOKEN: FAKE_BOT_TOKEN,
      TELEGRAM_API_BASE_URL: fakeBotApi.url,
      // The request log would bury the progress bar; LOG_LEVEL=info brings it back.
      LOG_LEVEL: env.LOG_LEVEL || 'warn',
    },
  });
  server.exited.then((code) => {
    if (stopping.signal.aborted) return;
    process.stderr.write(`\nThe server stopped (exit code ${code}); stopping the demo bot.\n`);
    stopping.abort();
    process.exit(code || 1);
  });

  const apiKey = await botApiKey(state, password);

  // History up to the slot before the current one; the console opens on a healthy last day (QUIET_MS).
  const startedAt = Date.now();
  const options = { quietAfter: startedAt - QUIET_MS };
  const first = slotOf(startedAt - historyHours * 3600 * 1000);
  const now = slotOf(startedAt);
  const progress = createProgress({ label: `Back-filling ${historySpan} of history` });
  const history = await sendSlots(apiKey, first, now, options, (slot, totals) => {
    const day = new Date(slot * SLOT_MS).toISOString().slice(0, 10);
    progress.update(
      (slot - first + 1) / (now - first),
      `${fmt(totals.accepted + totals.duplicates)} events, up to ${day}`,
    );
  });
  const elapsedMs = Math.max(1, progress.elapsedMs());
  const seconds = (elapsedMs / 1000).toFixed(1);
  progress.finish(
    `Back-filled ${historySpan}: ${fmt(history.accepted)} events stored` +
      ` and ${fmt(history.spans)} LLM calls sent as OpenTelemetry spans` +
      (history.duplicates ? `, ${fmt(history.duplicates)} already there from an earlier run` : '') +
      (history.rejected ? `, ${fmt(history.rejected)} rejected` : '') +
      ` in ${seconds} s (${fmt(Math.round(((history.accepted + history.duplicates) * 1000) / elapsedMs))} events/s).`,
  );

  // The slots that passed meanwhile, so the latest heartbeat is current when the alert rules come.
  const refused = new Set();
  let next = slotOf(Date.now());
  let sent = (await reportLive(apiKey, now, next, options, refused)).accepted;
  await setUpRulesAndLimits(password);
  const outage = planOutage(Date.now());
  const live = { ...options, outage };
  sayRunning({
    password,
    keptPassword: Boolean(state?.password && !env.LUMI_ADMIN_PASSWORD),
    fakeBotApiUrl: fakeBotApi.url,
    liveEveryMs: LIVE_EVERY_MS,
    outage,
  });

  const tell = createLiveStatus(fakeBotApi);
  while (!stopping.signal.aborted) {
    const until = slotOf(Date.now());
    const totals = await reportLive(apiKey, next, until, live, refused);
    next = until;
    sent += totals.accepted;
    tell(totals, sent);
    await sleep(LIVE_EVERY_MS, stopping.signal);
  }
}

main().catch(async (error) => {
  if (stopping.signal.aborted && !(error instanceof DemoStop && error.message)) return;
  process.stderr.write(`\n${error instanceof Error ? error.message : String(error)}\n`);
  stopping.abort();
  if (server) await server.stop('SIGTERM', 15_000);
  await fakeBotApi?.close();
  process.exit(1);
});
