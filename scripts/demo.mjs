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
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildStale, root, serverEntry } from './lib/build-stale.mjs';
import { ApiError, LumiApi } from './lib/lumi-api.mjs';
import { createProgress } from './lib/progress.mjs';
import { FakeBotApi, preciseNow } from '@lumi/test-support/fake-bot-api';
import { checkPortFree, NodeProcess } from '@lumi/test-support/server-process';
import { ALERT_RULES, OPS_CHANNEL, seedAlerts, seedContent } from './demo/seed-content.mjs';
import { demoBotApiFailures, describeRefusal } from './demo/bot-api-failures.mjs';
import {
  DEMO_BUDGETS,
  deliveriesOfSlot,
  eventsOfSlot,
  LLM_MODELS,
  otlpEncodingOf,
  OUTAGE_MS,
  planOutage,
  QUIET_MS,
  SLOT_MS,
  slotOf,
} from './demo/simulated-bot.mjs';
import { createOtlpReporter } from './demo/otlp-reporter.mjs';

const BATCH_SIZE = 1000;
const LIVE_EVERY_MS = 5000;
const KEY_NAME = 'demo-bot';
const KEY_SCOPES = ['ingest:write', 'messages:send'];
// A well-formed token the fake Bot API accepts; Telegram would not.
const FAKE_BOT_TOKEN = '123456:demo-not-a-real-token';
const STATE_FILE = 'demo-bot.json';
// Short, so the demo's alerts fire and resolve within seconds of their condition.
const ALERT_EVALUATION_SECONDS = '10';

const env = process.env;
const dataDir = path.resolve(env.DATA_DIR || path.join(root, 'data-demo'));
const shownDir = path.relative(process.cwd(), dataDir).startsWith('..')
  ? dataDir
  : `./${path.relative(process.cwd(), dataDir)}`;
const port = Number(env.PORT || 3000);
const host = env.HOST || '0.0.0.0';
const wildcard = host === '0.0.0.0' || host === '::';
const apiHost = wildcard ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
const api = new LumiApi(`http://${apiHost}:${port}`);
const consoleUrl = `http://${wildcard ? 'localhost' : apiHost}:${port}/admin`;
const username = env.LUMI_ADMIN_USERNAME || 'admin';
const historyHours = Number(env.DEMO_HISTORY_HOURS || 7 * 24);
const statePath = path.join(dataDir, STATE_FILE);

const say = (text = '') => process.stdout.write(`${text}\n`);
const fmt = (n) => n.toLocaleString('en');
const count = (n, noun) => `${fmt(n)} ${noun}${n === 1 ? '' : 's'}`;
const span = (n, unit) => new Intl.NumberFormat('en', { style: 'unit', unit, unitDisplay: 'long' }).format(n);
const historySpan = historyHours % 24 === 0 ? span(historyHours / 24, 'day') : span(historyHours, 'hour');
const clock = (ms, seconds = false) =>
  new Date(ms).toLocaleTimeString('en-GB', seconds ? {} : { hour: '2-digit', minute: '2-digit' });
const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** What the demo keeps between runs, beside the database (mode 0600: it holds a key and a password). */
function readState() {
  if (!existsSync(statePath)) return null;
  try {
    return JSON.parse(readFileSync(statePath, 'utf8'));
  } catch {
    return null;
  }
}

function writeState(state) {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(statePath, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  chmodSync(statePath, 0o600);
}

class DemoStop extends Error {}

const stopping = new AbortController();
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

/** Sends one batch, retrying network errors and 5xx (the ids make a retry safe); throws on anything else. */
async function send(apiKey, events) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await api.ingest(apiKey, events, stopping.signal);
    } catch (error) {
      if (stopping.signal.aborted) throw new DemoStop();
      const retryable = !(error instanceof ApiError) || error.status >= 500;
      if (!retryable || attempt >= 5) throw error;
      await sleep(500 * 2 ** attempt, stopping.signal);
    }
  }
}

/** A key that still works, from an earlier run, or null. An empty batch is a harmless probe. */
async function storedKeyWorks(apiKey) {
  try {
    await api.ingest(apiKey, []);
    return true;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return false;
    throw error;
  }
}

/**
 * Signs in as the first admin, creates the bot's key, budgets and prices, and the configuration and
 * messages an operator would have set up (demo/seed-content.mjs); all through the API.
 */
async function setUp(password) {
  let token;
  try {
    token = await api.signIn(username, password);
  } catch (error) {
    if (!(error instanceof ApiError) || ![401, 429].includes(error.status)) throw error;
    const lines = [
      `The demo database in ${shownDir} already has users, and the demo has no API key of its own for it,`,
      `so it could not sign in as '${username}' to create one. Either:`,
      `  - give it that admin's password: LUMI_ADMIN_PASSWORD='…' npm run demo`,
      `    (and LUMI_ADMIN_USERNAME=… when the admin is not '${username}'), or`,
      `  - start from a fresh demo directory: DATA_DIR=./data-demo-2 npm run demo (or delete ${shownDir}).`,
    ];
    if (error.status === 429) lines.push('(Sign-in is throttled after failed attempts; wait 15 minutes.)');
    throw new DemoStop(lines.join('\n'));
  }

  let created;
  for (let n = 1; !created; n += 1) {
    try {
      created = await api.createApiKey(token, n === 1 ? KEY_NAME : `${KEY_NAME}-${n}`, KEY_SCOPES);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409 || n >= 20) throw error;
    }
  }
  writeState({
    api_key: created.key,
    api_key_name: created.name,
    api_key_scopes: KEY_SCOPES,
    username,
    password,
  });
  say(
    `Demo bot: created API key '${created.name}' (scopes ${KEY_SCOPES.join(', ')}), kept in ${shownDir}/${STATE_FILE}.`,
  );

  // Real API calls, as an operator would make them in the console; an existing one is left as it is.
  const made = [];
  for (const [provider, budget] of Object.entries(DEMO_BUDGETS)) {
    try {
      await api.createBudget(token, provider, budget);
      made.push(`budget ${provider}`);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
    }
  }
  for (const model of LLM_MODELS.filter((m) => m.price)) {
    await api.setModelPrice(token, model.model, model.price);
    made.push(`price ${model.model}`);
  }
  made.push(...(await seedContent(api, token)));
  say(`Demo bot: set up ${made.join(', ')}.`);
  return created.key;
}

/**
 * Signs in and sets up the alert rules (demo/seed-content.mjs), once per data directory, so a demo from
 * before alerts gets them too. They come after the back-fill: made earlier, the heartbeat rule would fire
 * at a history days old. A failed sign-in (the admin's password changed) only skips them.
 */
async function setUpAlerts(password) {
  if (readState()?.alerts_seeded) return;
  let token;
  try {
    token = await api.signIn(username, password);
  } catch (error) {
    if (!(error instanceof ApiError) || ![401, 429].includes(error.status)) throw error;
    say(
      `Demo bot: could not sign in as '${username}' to set up the alert rules; the demo goes on without them.`,
    );
    say(`  LUMI_ADMIN_PASSWORD='…' npm run demo sets them up, with that admin's password.`);
    return;
  }
  const made = await seedAlerts(api, token);
  writeState({ ...readState(), alerts_seeded: true });
  if (made.length) say(`Demo bot: set up ${made.join(', ')}.`);
}

/** Reports the slots [from, to) live: their events, then their messages. */
async function reportLive(apiKey, from, to, options, refused) {
  const totals = await sendSlots(apiKey, from, to, options);
  for (let slot = from; slot < to; slot += 1) await queueMessages(apiKey, slot, options, refused);
  return totals;
}

/** The OpenTelemetry-instrumented part of the bot, one per API key. */
const otlpReporters = new Map();
function otlpReporter(apiKey) {
  if (!otlpReporters.has(apiKey))
    otlpReporters.set(apiKey, createOtlpReporter({ baseUrl: api.baseUrl, apiKey }));
  return otlpReporters.get(apiKey);
}

/** Sends its calls as OTLP spans in each encoding; a failed export is told once and passed over. */
async function sendSpans(apiKey, spans, totals) {
  for (const [encoding, events] of Object.entries(spans)) {
    try {
      totals.spans += await otlpReporter(apiKey).report(events, encoding);
    } catch (error) {
      if (stopping.signal.aborted) throw new DemoStop();
      if (!totals.spanError) process.stderr.write(`\nOTLP export failed: ${error.message}\n`);
      totals.spanError = true;
    }
  }
}

/**
 * Sends the events of slots [from, to) in batches of up to BATCH_SIZE, the calls of OpenTelemetry-
 * instrumented models as OTLP spans (otlpEncodingOf); reports progress per batch.
 */
async function sendSlots(apiKey, from, to, options, onBatch) {
  let batch = [];
  let spans = { protobuf: [], json: [] };
  const totals = { accepted: 0, duplicates: 0, rejected: 0, spans: 0, budgets: [] };
  const flush = async (slot) => {
    if (batch.length === 0 && spans.protobuf.length + spans.json.length === 0) return;
    if (batch.length > 0) {
      const result = await send(apiKey, batch);
      totals.accepted += result.accepted;
      totals.duplicates += result.duplicates;
      totals.rejected += result.rejected.length;
      totals.budgets = result.budgets;
      if (result.rejected.length > 0 && totals.rejected === result.rejected.length) {
        process.stderr.write(`\nThe server rejected an event: ${result.rejected[0].detail}\n`);
      }
    }
    await sendSpans(apiKey, spans, totals);
    batch = [];
    spans = { protobuf: [], json: [] };
    onBatch?.(slot, totals);
  };
  for (let slot = from; slot < to; slot += 1) {
    for (const event of eventsOfSlot(slot, options)) {
      const encoding = otlpEncodingOf(event);
      if (encoding) spans[encoding].push(event);
      else batch.push(event);
      if (batch.length + spans.protobuf.length + spans.json.length >= BATCH_SIZE) await flush(slot);
    }
  }
  await flush(to - 1);
  return totals;
}

/**
 * Asks Lumi to send the slot's messages. One that fails is left (the next come soon): a network error or
 * 5xx is passed over silently, anything else (the operator renamed or deleted a demo template, say) is
 * told once.
 */
async function queueMessages(apiKey, slot, options, refused) {
  for (const delivery of deliveriesOfSlot(slot, options)) {
    try {
      await api.queueDelivery(apiKey, delivery, stopping.signal);
    } catch (error) {
      if (stopping.signal.aborted) throw new DemoStop();
      if (!(error instanceof ApiError) || error.status >= 500 || refused.has(error.message)) continue;
      refused.add(error.message);
      process.stderr.write(
        `\nThe demo bot could not queue a '${delivery.template_name}' message: ${error.message}\n`,
      );
    }
  }
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

  // A key from a demo before deliveries cannot send messages (no messages:send): it gets a new one.
  const sends = state?.api_key_scopes?.includes('messages:send');
  let apiKey = state?.api_key;
  if (apiKey && sends && (await storedKeyWorks(apiKey))) {
    say(`Demo bot: using its API key '${state.api_key_name}' from ${shownDir}/${STATE_FILE}.`);
  } else {
    if (apiKey && !sends) say('Demo bot: its stored API key cannot send messages; making a new one.');
    else if (apiKey)
      say('Demo bot: its stored API key is no longer valid (revoked, or a new database); making a new one.');
    apiKey = await setUp(password);
  }

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
  await setUpAlerts(password);
  const outage = planOutage(Date.now());
  const live = { ...options, outage };
  const heartbeatRule = ALERT_RULES.find((rule) => rule.condition.type === 'heartbeat_missing');

  say('');
  say('  Lumi Admin demo is running.');
  say(`    Console:  ${consoleUrl}`);
  say(`    Sign in:  ${username} / ${password}`);
  if (state?.password && !env.LUMI_ADMIN_PASSWORD)
    say('              (as set at the first demo run; yours if you changed it since)');
  say(`    Data:     ${shownDir} (demo only; delete it to start over)`);
  say(`    Telegram: a demo-only fake Bot API at ${fakeBotApi.url} (not Telegram)`);
  say(
    `  The bot reports live events every ${LIVE_EVERY_MS / 1000} s and asks Lumi to send a price alert every ` +
      `${(2 * SLOT_MS) / 1000} s`,
  );
  say('  and the market dashboard every minute (the log is under Messages > Deliveries). The fake Bot API');
  say('  fails a message now and then on purpose (a 403, a 500, a 429), each told below.');
  say('  Press Ctrl+C to stop.');
  const firesAt = clock(outage.from * SLOT_MS + heartbeatRule.condition.seconds * 1000);
  say(
    `  At ${clock(outage.from * SLOT_MS)} the bot goes down for ${span(OUTAGE_MS / 60_000, 'minute')}, then restarts:`,
  );
  say(
    `  the alert '${heartbeatRule.name}' fires at about ${firesAt}, tells the ${OPS_CHANNEL.channel_name} chat,`,
  );
  say(`  and resolves at about ${clock((outage.to + 3) * SLOT_MS)} (Alerts in the console).`);
  say('');

  let lastLine = 0;
  let told = fakeBotApi.accepted.length;
  let toldRefused = 0;
  const tty = process.stderr.isTTY;
  const warned = new Set();
  while (!stopping.signal.aborted) {
    const until = slotOf(Date.now());
    const totals = await reportLive(apiKey, next, until, live, refused);
    next = until;
    sent += totals.accepted;
    // Each alert that reached the Ops chat, by the first lines of its text.
    for (const message of fakeBotApi.accepted.slice(told)) {
      if (message.chat_id !== OPS_CHANNEL.chat_id) continue;
      const lines = message.text
        .replace(/<[^>]*>/g, '')
        .split('\n')
        .filter(Boolean);
      const title = lines.slice(0, 3).join(' · ');
      process.stderr.write(
        `\nAlert to the ${OPS_CHANNEL.channel_name} chat at ${clock(message.at, true)}: ${title}\n`,
      );
    }
    told = fakeBotApi.accepted.length;
    // Each message the fake refused on purpose, but not the 429s of the wait one of them asked for.
    for (const refusal of fakeBotApi.refused.slice(toldRefused)) {
      if (!refusal.flood_wait)
        process.stderr.write(`\n${clock(refusal.at, true)} ${describeRefusal(refusal)}\n`);
    }
    toldRefused = fakeBotApi.refused.length;
    for (const budget of totals.budgets.filter((b) => b.exceeded && !warned.has(b.provider))) {
      warned.add(budget.provider);
      process.stderr.write(
        `\nThe ${budget.provider} token budget is used up for today (${budget.usage_percentage} %).\n`,
      );
    }
    const refusedCount = fakeBotApi.refused.length;
    const line =
      `Live: ${count(sent, 'event')} reported since start-up, ` +
      `${count(fakeBotApi.accepted.length, 'message')} received by the fake Bot API` +
      (refusedCount ? ` (and ${fmt(refusedCount)} refused on purpose)` : '') +
      `, the latest at ${new Date().toLocaleTimeString('en-GB')}.`;
    if (tty) process.stderr.write(`\r${line}\x1b[K`);
    else if (Date.now() - lastLine >= 60_000) {
      lastLine = Date.now();
      process.stderr.write(`${line}\n`);
    }
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
