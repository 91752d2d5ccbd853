// The demo bot's set-up (scripts/demo.mjs), all through the public API: its API key (kept between runs in
// the data directory with the admin's password), budgets and model prices, the content an operator would
// have entered (seed-content.mjs) and, once the history is in, the alert rules (seed-alerts.mjs) and the
// limits (seed-limits.mjs).
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ApiError } from '../lib/lumi-api.mjs';
import { say } from './print.mjs';
import { seedAlerts } from './seed-alerts.mjs';
import { seedContent } from './seed-content.mjs';
import { seedLimits } from './seed-limits.mjs';
import { api, dataDir, shownDir, username } from './settings.mjs';
import { DEMO_BUDGETS, LLM_MODELS } from './simulated-bot.mjs';
import { DemoStop } from './stopping.mjs';

const KEY_NAME = 'demo-bot';
/** It reports, sends messages, and asks before each live LLM call whether the limits allow it. */
const KEY_SCOPES = ['ingest:write', 'messages:send', 'allowance:read'];
const STATE_FILE = 'demo-bot.json';
const statePath = path.join(dataDir, STATE_FILE);

/** What the demo keeps between runs, beside the database (mode 0600: it holds a key and a password). */
export function readState() {
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
 * The bot's API key: the one kept from an earlier run while it works and can send messages, else a new
 * one, made with the whole set-up (setUp).
 */
export async function botApiKey(state, password) {
  // A key from an earlier demo may lack a scope added since (messages:send, allowance:read): it gets a new one.
  const missing = KEY_SCOPES.filter((scope) => !state?.api_key_scopes?.includes(scope));
  const apiKey = state?.api_key;
  if (apiKey && missing.length === 0 && (await storedKeyWorks(apiKey))) {
    say(`Demo bot: using its API key '${state.api_key_name}' from ${shownDir}/${STATE_FILE}.`);
    return apiKey;
  }
  if (apiKey && missing.length > 0)
    say(`Demo bot: its stored API key lacks ${missing.join(', ')}; making a new one.`);
  else if (apiKey)
    say('Demo bot: its stored API key is no longer valid (revoked, or a new database); making a new one.');
  return setUp(password);
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
 * Signs in and sets up the alert rules (demo/seed-alerts.mjs) and the limits (demo/seed-limits.mjs), each
 * once per data directory, so a demo from before them gets them too. They come after the back-fill: made
 * earlier, the heartbeat rule would fire at a history days old. A failed sign-in (the admin's password
 * changed) only skips them.
 */
export async function setUpRulesAndLimits(password) {
  const seeded = readState() ?? {};
  if (seeded.alerts_seeded && seeded.limits_seeded) return;
  let token;
  try {
    token = await api.signIn(username, password);
  } catch (error) {
    if (!(error instanceof ApiError) || ![401, 429].includes(error.status)) throw error;
    say(
      `Demo bot: could not sign in as '${username}' to set up the alert rules and limits; the demo goes on without them.`,
    );
    say(`  LUMI_ADMIN_PASSWORD='…' npm run demo sets them up, with that admin's password.`);
    return;
  }
  const made = [];
  if (!seeded.alerts_seeded) made.push(...(await seedAlerts(api, token)));
  if (!seeded.limits_seeded) made.push(...(await seedLimits(api, token)));
  writeState({ ...readState(), alerts_seeded: true, limits_seeded: true });
  if (made.length) say(`Demo bot: set up ${made.join(', ')}.`);
}
