// `npm run bench`: prints figures, it is not a test (docs/benchmarks.md).
//  1. Ingestion: events per second through POST /api/ingest/events, batches of 500 llm_call events, against
//     the built server on a scratch SQLite data directory (and on a scratch PostgreSQL database when
//     DATABASE_URL is set).
//  2. Dashboards at scale: loads BENCH_EVENTS (default 10,000,000) llm_call events with the per-call
//     dimensions and their rollups into a scratch database, then measures GET /api/metrics/llm-usage,
//     /api/metrics/gemini-usage?hours=168 and the dimension and latency endpoints (dashboardEndpoints())
//     with autocannon (10 connections, BENCH_DURATION seconds each, in rounds) beside a bare Fastify route
//     returning a small constant body and each dashboard's own answer (scripts/bench/report.mjs judges).
//     With part `mixed` too, then the same dashboards while ingestion runs at a steady
//     BENCH_MIXED_EVENTS_PER_SECOND (default 5,000) events/s (measureMixed()).
//  3. Hostile requests: the longest the worst requests a client can send hold the server (scripts/bench/
//     hostile.mjs), on SQLite (and PostgreSQL).
//  4. Retention: loads BENCH_RETENTION_EVENTS_PER_DAY (default 1,000,000) llm_call rows a day for
//     BENCH_RETENTION_DAYS + 1 days (default 30 + 1) into a scratch database, starts the server on it with
//     RETENTION_DAYS=BENCH_RETENTION_DAYS and reads the duration of its first retention run (which removes
//     the oldest day) from its log; on SQLite (and PostgreSQL).
//  5. Cluster (PostgreSQL only): two instances on one scratch database holding BENCH_CLUSTER_EVENTS
//     (default 1,000,000) events, beside one: ingestion through both, the two dashboards through both, and
//     how soon a sign-out on one is refused by the other (BENCH_SIGNOUTS sessions, default 100).
//  6. Deliveries: the server with TELEGRAM_BOT_TOKEN set and TELEGRAM_API_BASE_URL at a local fake Bot API
//     (@lumi/test-support/fake-bot-api), on SQLite (and PostgreSQL). (a) Deliveries accepted per second with
//     a `messages:send` key: BENCH_DELIVERY_BATCHES (default 100) batches of 100, 3 in flight, then
//     BENCH_DELIVERY_SINGLES (default 2,000) single POSTs, 10 in flight; all due in an hour, so the sender
//     sends none meanwhile. (b) The sender: BENCH_SEND_DELIVERIES (default 900) deliveries over
//     BENCH_SEND_CHATS (default 60) chats, so the per-chat limits do not bind; the sending rate and the
//     busiest second as the fake received them (scripts/bench/deliveries.mjs).
//  7. Alerts: BENCH_EVENTS llm_call events (as part 2 loads them) and the rest of a bot's telemetry of the same
//     29 days (scripts/bench/load-alert-data.ts) in a scratch database, then BENCH_ALERT_PASSES (default 10)
//     evaluation passes of BENCH_ALERT_RULES (default 200) rules over every condition type, measured in-process
//     on the server's own code (scripts/bench/alerts-pass.ts): the engine alone, then the whole pass of the
//     alerts job with its writes and webhook notifications (to a local receiver on port 4150); on SQLite (and
//     PostgreSQL). Target: a pass under 1 s.
//  8. OTLP: spans per second through POST /api/otlp/v1/traces, protobuf and JSON, beside the JSON ingestion
//     API with the same LLM calls (BENCH_BATCHES batches of 500 GenAI spans made and encoded by the
//     OpenTelemetry SDK; scripts/bench/otlp.mjs), on SQLite (and PostgreSQL).
//  9. Render load: BENCH_RENDER_REQUESTS (default 200) deliveries of the demo's templates at once, quiet and
//     with BENCH_RENDER_HOGS (default 2) CPU-bound processes beside the server: all must be accepted
//     (scripts/bench/render-load.mjs), on SQLite (and PostgreSQL).
// BENCH_PARTS chooses parts (default `ingest,otlp,dashboards,mixed,hostile,retention,cluster,deliveries,
// alerts,render-load`; cluster needs DATABASE_URL, mixed runs with dashboards).
// Everything scratch is removed at the end, also on Ctrl+C.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { buildStale, root, serverEntry } from './lib/build-stale.mjs';
import { measureInterleaved } from './bench/autocannon.mjs';
import { measureOtlp } from './bench/otlp.mjs';
import { measureAccepting, measureSending } from './bench/deliveries.mjs';
import { measureHostile, printHostile } from './bench/hostile.mjs';
import { measureRenderLoad, printRenderLoad } from './bench/render-load.mjs';
import {
  report,
  reportAlerts,
  reportMixed,
  reportCluster,
  reportDeliveries,
  reportRetention,
} from './bench/report.mjs';
import { startSteadyIngestion } from './bench/steady-ingestion.mjs';
import { ingestBodies } from './bench/workload.mjs';
import { LumiApi } from './lib/lumi-api.mjs';
import { createProgress } from './lib/progress.mjs';
import { LLM_MODELS } from './demo/simulated-bot.mjs';
import { FakeBotApi, preciseNow } from '@lumi/test-support/fake-bot-api';
import { freePort, NodeProcess } from '@lumi/test-support/server-process';

function count(name, fallback) {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw.replace(/[_,]/g, ''));
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`${name} must be a positive whole number, not '${raw}'.\n`);
    process.exit(2);
  }
  return value;
}

const EVENTS = count('BENCH_EVENTS', 10_000_000);
const BATCHES = count('BENCH_BATCHES', 200);
const BATCH_SIZE = 500;
const WARMUP_BATCHES = 10;
const INGEST_CONNECTIONS = count('BENCH_INGEST_CONNECTIONS', 2);
const DURATION = count('BENCH_DURATION', 10);
const CONNECTIONS = 10;
const ROUNDS = 5;
const RETENTION_EVENTS_PER_DAY = count('BENCH_RETENTION_EVENTS_PER_DAY', 1_000_000);
const RETENTION_DAYS = count('BENCH_RETENTION_DAYS', 30);
const CLUSTER_EVENTS = count('BENCH_CLUSTER_EVENTS', 1_000_000);
const SIGNOUTS = count('BENCH_SIGNOUTS', 100);
const ALERT_RULES = count('BENCH_ALERT_RULES', 200);
const ALERT_PASSES = count('BENCH_ALERT_PASSES', 10);
const MIXED_EVENTS_PER_SECOND = count('BENCH_MIXED_EVENTS_PER_SECOND', 5_000);
const DELIVERIES = {
  batches: count('BENCH_DELIVERY_BATCHES', 100),
  batchSize: 100,
  batchConcurrency: 3,
  singles: count('BENCH_DELIVERY_SINGLES', 2000),
  singleConcurrency: 10,
  deliveries: count('BENCH_SEND_DELIVERIES', 900),
  chats: count('BENCH_SEND_CHATS', 60),
};
const RENDER_LOAD = { requests: count('BENCH_RENDER_REQUESTS', 200), hogs: count('BENCH_RENDER_HOGS', 2) };
const TARGETS = {
  ingestPerSecond: 20_000,
  p99Ms: 20,
  ratio: 0.5,
  signOutP99Ms: 100,
  acceptedPerSecond: 2_000,
  // Within 5 % of Telegram's 30 messages a second, and never above it.
  sendingPerSecond: 28.5,
  sendingMaxPerSecond: 30,
  alertPassMs: 1000,
};
const PARTS = new Set(
  (
    process.env.BENCH_PARTS ||
    'ingest,otlp,dashboards,mixed,hostile,retention,cluster,deliveries,alerts,render-load'
  ).split(','),
);

const DATABASE_URL = process.env.DATABASE_URL || undefined;
/** BENCH_SQLITE=skip leaves SQLite out of parts ingest and dashboards (to measure PostgreSQL alone). */
const SQLITE = process.env.BENCH_SQLITE !== 'skip';
const PASSWORD = randomBytes(18).toString('base64url');
const fmt = (n) => Math.round(n).toLocaleString('en');
const say = (text = '') => process.stdout.write(`${text}\n`);

// Scratch resources, removed by cleanUp() however the run ends.
const scratchDir = mkdtempSync(path.join(os.tmpdir(), 'lumi-bench-'));
const scratchDatabases = [];
const children = new Set();
const fakes = new Set();

async function cleanUp() {
  for (const child of children) await child.stop('SIGTERM', 15_000);
  for (const fake of fakes) await fake.close();
  rmSync(scratchDir, { recursive: true, force: true });
  for (const name of scratchDatabases.splice(0)) {
    await withPostgres(DATABASE_URL, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    );
  }
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\nInterrupted: removing the scratch data…\n`);
    cleanUp().finally(() => process.exit(130));
  });
}

async function withPostgres(url, run) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database beside DATABASE_URL's (the role needs CREATEDB); dropped by cleanUp(). */
async function scratchPostgres(purpose) {
  const name = `lumi_bench_${purpose}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await withPostgres(DATABASE_URL, (client) => client.query(`CREATE DATABASE "${name}"`));
  scratchDatabases.push(name);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The built server on a free port with the given database; resolves once it answers. With `logs`, its
 * stdout is read at LOG_LEVEL=info and `server.logEntry(msg)` waits for a log line with that message.
 */
async function launch(env, script, { logs = false } = {}) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = await NodeProcess.start(script ?? serverEntry, {
    healthUrl: `${baseUrl}/api/health`,
    // Otherwise the server's own stdout (the first-admin notice) is not part of the figures.
    stdio: ['ignore', logs ? 'pipe' : 'ignore', 'inherit'],
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: logs ? 'info' : 'warn',
      LUMI_ADMIN_USERNAME: 'admin',
      LUMI_ADMIN_PASSWORD: PASSWORD,
      DATABASE_URL: '',
      // Also with PostgreSQL: the generated signing key must not land in the real ./data.
      DATA_DIR: path.join(scratchDir, 'server'),
      ...env,
    },
  });
  children.add(server);
  const launched = Object.assign(server, { api: new LumiApi(baseUrl), baseUrl });
  if (logs) launched.logEntry = watchLog(server);
  return launched;
}

/**
 * Reads a server's JSON log lines from its stdout (paused until now, so nothing written since it started
 * is lost) and returns logEntry(msg, timeoutMs): the first entry with that message, whenever it comes;
 * rejects when the server exits or the time runs out first.
 */
function watchLog({ child, exited }) {
  const entries = [];
  const waiting = new Set();
  createInterface({ input: child.stdout }).on('line', (line) => {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      return; // The first-admin notice and the address banner are plain text.
    }
    entries.push(entry);
    for (const wait of waiting) if (wait.msg === entry.msg) wait.resolve(entry);
  });
  return (msg, timeoutMs) => {
    const seen = entries.find((entry) => entry.msg === msg);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const wait = {
        msg,
        resolve: (entry) => {
          waiting.delete(wait);
          clearTimeout(timer);
          resolve(entry);
        },
      };
      const timer = setTimeout(() => {
        waiting.delete(wait);
        reject(new Error(`The server did not log '${msg}' within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      waiting.add(wait);
      void exited.then((code) => {
        if (!waiting.has(wait)) return;
        waiting.delete(wait);
        clearTimeout(timer);
        reject(new Error(`The server exited (code ${code}) before it logged '${msg}'; see above.`));
      });
    });
  };
}

async function shut(server) {
  children.delete(server);
  await server.stop('SIGTERM', 15_000);
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function benchIngest(label, env) {
  const server = await launch(env);
  try {
    return await ingestThrough(label, [server], 'bench');
  } finally {
    await shut(server);
  }
}

/**
 * The ingestion workload through `servers` at once (instances on one database): INGEST_CONNECTIONS
 * concurrent requests to each, taking batches from one queue. `tag` keeps the events' ids apart from other
 * runs on the same database.
 */
async function ingestThrough(label, servers, tag) {
  const token = await servers[0].api.signIn('admin', PASSWORD);
  const { key } = await servers[0].api.createApiKey(token, `bench ${tag}`, ['ingest:write']);
  for (const model of LLM_MODELS.filter((m) => m.price))
    await servers[0].api.setModelPrice(token, model.model, model.price);

  for (const [index, server] of servers.entries()) {
    for (const body of ingestBodies(WARMUP_BATCHES, BATCH_SIZE, `${tag}-warmup-${index}`))
      await server.api.ingest(key, body);
  }

  const bodies = ingestBodies(BATCHES, BATCH_SIZE, tag);
  const latencies = [];
  let next = 0;
  let accepted = 0;
  const progress = createProgress({ label: `Ingestion on ${label}` });
  const started = process.hrtime.bigint();
  const worker = async (server) => {
    while (next < bodies.length) {
      const body = bodies[next];
      next += 1;
      const t0 = process.hrtime.bigint();
      const result = await server.api.ingest(key, body);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      accepted += result.accepted;
      progress.update(
        latencies.length / bodies.length,
        `${fmt(latencies.length)} of ${fmt(bodies.length)} batches`,
      );
    }
  };
  await Promise.all(
    servers.flatMap((server) => Array.from({ length: INGEST_CONNECTIONS }, () => worker(server))),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  progress.finish(`Ingestion on ${label}: ${fmt(accepted)} events in ${seconds.toFixed(1)} s.`);
  if (accepted !== BATCHES * BATCH_SIZE) {
    throw new Error(`Only ${accepted} of ${BATCHES * BATCH_SIZE} events were accepted`);
  }
  latencies.sort((a, b) => a - b);
  return {
    label,
    instances: servers.length,
    events: accepted,
    seconds,
    perSecond: accepted / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/**
 * Runs a generator of scripts/bench (TypeScript, through tsx) that loads events into a scratch database:
 * load-llm-calls.ts (events and rollups) by default.
 */
async function load(env, generator = 'load-llm-calls.ts') {
  const handle = await NodeProcess.start(path.join(root, 'scripts/bench', generator), {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { BENCH_EVENTS: String(EVENTS), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(handle);
  let output = '';
  handle.child.stdout.on('data', (chunk) => (output += chunk));
  const code = await handle.exited;
  children.delete(handle);
  if (code !== 0) throw new Error(`The generator failed (exit code ${code}); see above.`);
  return JSON.parse(output.trim().split('\n').at(-1));
}

/** How often a long measurement signs in again: an access token lasts 15 minutes. */
const SESSION_RENEW_MS = 10 * 60_000;

/**
 * The admin signed in for a measurement that may outlast one access token (a long BENCH_DURATION does):
 * `headers`, which every autocannon slice reads as it starts, and `token` are renewed by signing in again
 * every SESSION_RENEW_MS until `stop()`.
 */
async function adminSession(server) {
  const session = { token: '', headers: {}, stop: () => {} };
  const signIn = async () => {
    session.token = await server.api.signIn('admin', PASSWORD);
    session.headers.authorization = `Bearer ${session.token}`;
  };
  await signIn();
  const timer = setInterval(
    () => signIn().catch((error) => say(`Signing in again failed: ${error.message}`)),
    SESSION_RENEW_MS,
  );
  session.stop = () => clearInterval(timer);
  return session;
}

async function benchDashboards(label, loaderEnv, serverEnv) {
  const loaded = await load(loaderEnv);
  const server = await launch(serverEnv);
  const bare = await launch({}, path.join(root, 'scripts/bench/bare-server.mjs'));
  let session;
  try {
    session = await adminSession(server);
    const { token, headers } = session;
    const usage = await server.api.request('GET', '/api/metrics/llm-usage', { token });
    if (usage.totals.requests !== loaded.events) {
      throw new Error(
        `llm-usage counts ${usage.totals.requests} requests, the generator loaded ${loaded.events}`,
      );
    }
    const yardstick = { name: 'bare Fastify route (constant JSON)', url: `${bare.baseUrl}/bare` };
    // References, not targets: the server's plugins alone (public health check), then with sign-in checks.
    const targets = [
      yardstick,
      { name: 'GET /api/health', reference: true, url: `${server.baseUrl}/api/health` },
      { name: 'GET /api/auth/me', reference: true, url: `${server.baseUrl}/api/auth/me`, headers },
    ];
    const sameBody = new Map();
    const endpoints = dashboardEndpoints();
    for (const [index, endpoint] of endpoints.entries()) {
      const target = { name: `GET ${labelOf(endpoint)}`, url: `${server.baseUrl}${endpoint}`, headers };
      // The bare route again, sending this endpoint's answer: the share left once the size is equal.
      const answer = await server.api.request('GET', endpoint, { token });
      const stored = await fetch(`${bare.baseUrl}/same/${index}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(answer),
      });
      const same = {
        name: `bare route, ${labelOf(endpoint)}'s answer`,
        url: `${bare.baseUrl}/same/${index}`,
      };
      sameBody.set(target, { same, bytes: (await stored.json()).bytes });
      targets.push(target, same);
    }
    say(
      `Measuring with autocannon: ${CONNECTIONS} connections, ${DURATION} s per endpoint in ${ROUNDS} rounds…`,
    );
    const figures = await measureInterleaved(targets, {
      connections: CONNECTIONS,
      duration: DURATION,
      rounds: ROUNDS,
    });
    const rows = targets
      .filter((target) => ![...sameBody.values()].some(({ same }) => same === target))
      .map((target) => {
        const row = { name: target.name, reference: target.reference, ...figures.get(target) };
        const twin = sameBody.get(target);
        if (twin) Object.assign(row, { bytes: twin.bytes, sameBody: figures.get(twin.same).perSecond });
        return row;
      });
    const mixed = PARTS.has('mixed') ? await measureMixed(server, session, endpoints) : null;
    return { label, loaded, rows, mixed };
  } finally {
    session?.stop();
    await shut(bare);
    await shut(server);
  }
}

/**
 * The dashboards measured: the two of the Overview and the usage endpoints (docs/operators/metrics.md) over the console's usual
 * ranges (the default 24 hours, 7 days by hour, 30 and 90 days by day).
 */
function dashboardEndpoints() {
  const day = 24 * 3600 * 1000;
  const now = Date.now();
  const ago = (days) => new Date(now - days * day).toISOString();
  const week = `from=${ago(7)}&to=${new Date(now).toISOString()}`;
  return [
    '/api/metrics/llm-usage',
    '/api/metrics/gemini-usage?hours=168',
    '/api/metrics/llm/features',
    `/api/metrics/llm/features?from=${ago(30)}`,
    `/api/metrics/llm/errors?from=${ago(30)}`,
    `/api/metrics/llm/top-chats?from=${ago(30)}`,
    `/api/metrics/llm/top-users?from=${ago(30)}`,
    '/api/metrics/llm/latency',
    `/api/metrics/llm/latency?${week}&interval=hour`,
    `/api/metrics/llm/latency?from=${ago(90)}&interval=day`,
    `/api/metrics/integrations/latency?from=${ago(30)}&interval=day`,
  ];
}

/** An endpoint as the report names it: a range as days before now ("from=-30d"), not its instants. */
function labelOf(endpoint) {
  return endpoint.replace(/from=([^&]+)(&to=[^&]+)?/, (_, from) => {
    const days = Math.round((Date.now() - Date.parse(from)) / (24 * 3600 * 1000));
    return `from=-${days}d`;
  });
}

/**
 * Part `mixed` (with `dashboards`, on its data): the dashboards measured while ingestion runs at a steady
 * MIXED_EVENTS_PER_SECOND (batches of BATCH_SIZE live llm_calls, from the last minute, every
 * BATCH_SIZE / rate seconds, at most 4 in flight, sent from a worker thread: bench/steady-ingestion.mjs).
 * Every stored batch clears the dashboards' cache, so their answers are mostly computed afresh.
 */
async function measureMixed(server, { token, headers }, endpoints) {
  const { key } = await server.api.createApiKey(token, 'bench mixed', ['ingest:write']);
  for (const model of LLM_MODELS.filter((m) => m.price))
    await server.api.setModelPrice(token, model.model, model.price);
  const targets = endpoints.map((endpoint) => ({
    name: `GET ${labelOf(endpoint)}`,
    url: `${server.baseUrl}${endpoint}`,
    headers,
  }));
  const ingestion = startSteadyIngestion({
    baseUrl: server.baseUrl,
    key,
    eventsPerSecond: MIXED_EVENTS_PER_SECOND,
    batchSize: BATCH_SIZE,
    tag: 'mixed',
  });
  say(
    `Mixed on the same server: ${fmt(MIXED_EVENTS_PER_SECOND)} events/s ingested (from a worker thread) while ` +
      `measuring ${CONNECTIONS} connections, ${DURATION} s per endpoint…`,
  );
  let figures;
  try {
    // One slice per endpoint: a request slowed by ingestion still ends inside it.
    figures = await measureInterleaved(targets, { connections: CONNECTIONS, duration: DURATION, rounds: 1 });
  } catch (error) {
    await ingestion.stop().catch(() => {});
    throw error;
  }
  const ingested = await ingestion.stop();
  if (ingested.failure) throw new Error(`Ingestion failed during the mixed run: ${ingested.failure}`);
  return {
    perSecond: ingested.perSecond,
    target: MIXED_EVENTS_PER_SECOND,
    skipped: ingested.skipped,
    batchP99: ingested.batchP99,
    rows: targets.map((target) => ({ name: target.name, ...figures.get(target) })),
  };
}

const RETENTION_MESSAGE = 'telemetry retention: pruned old events and rollups';

/**
 * Loads the retention workload, starts the server on it and reads its first retention run (the job starts
 * at once on a fresh database) from its log; then counts the rows left with `countLeft`.
 */
async function benchRetention(label, loaderEnv, serverEnv, countLeft) {
  const loaded = await load(
    {
      BENCH_RETENTION_EVENTS_PER_DAY: String(RETENTION_EVENTS_PER_DAY),
      BENCH_RETENTION_DAYS: String(RETENTION_DAYS),
      ...loaderEnv,
    },
    'load-retention-days.ts',
  );
  say(`Retention on ${label}: starting the server with RETENTION_DAYS=${RETENTION_DAYS}…`);
  const server = await launch({ RETENTION_DAYS: String(RETENTION_DAYS), ...serverEnv }, undefined, {
    logs: true,
  });
  let entry;
  try {
    entry = await server.logEntry(RETENTION_MESSAGE, 30 * 60_000);
  } finally {
    await shut(server);
  }
  const left = await countLeft();
  if (left !== loaded.events - entry.events) {
    throw new Error(`${fmt(left)} rows left after removing ${fmt(entry.events)} of ${fmt(loaded.events)}`);
  }
  return { label, loaded, removed: entry.events, partitions: entry.partitions, ms: entry.ms, left };
}

/** Sign-ins on A, sign-outs on A, and how long B goes on accepting the signed-out session; in ms. */
async function measureSignOuts(a, b) {
  const latencies = [];
  const progress = createProgress({ label: 'Sign-outs through A, seen by B' });
  for (let i = 0; i < SIGNOUTS; i += 1) {
    const token = await a.api.signIn('admin', PASSWORD);
    // Twice: B now holds the principal in its cache, which alone would accept it for 60 s.
    for (let k = 0; k < 2; k += 1) await b.api.request('GET', '/api/auth/me', { token });
    await a.api.request('POST', '/api/auth/logout', { token });
    const signedOut = performance.now();
    for (;;) {
      const response = await fetch(`${b.baseUrl}/api/auth/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      if (response.status === 401) break;
      if (!response.ok) throw new Error(`GET /api/auth/me on B answered ${response.status}`);
      if (performance.now() - signedOut > 10_000) {
        throw new Error('B still accepted a signed-out session 10 s after the sign-out on A');
      }
    }
    latencies.push(performance.now() - signedOut);
    progress.update((i + 1) / SIGNOUTS, `${i + 1} of ${SIGNOUTS} sessions`);
  }
  progress.finish();
  latencies.sort((x, y) => x - y);
  return {
    count: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
  };
}

/**
 * Two instances, A and B, on one scratch PostgreSQL database, as behind a load balancer: the same secret,
 * and a 60-second principal cache so that only the invalidation notification can make B refuse a session
 * signed out on A at once. Each figure with A alone, then with A and B.
 */
async function benchCluster() {
  const url = await scratchPostgres('cluster');
  const loaded = await load({ BENCH_DATABASE_URL: url, BENCH_EVENTS: String(CLUSTER_EVENTS) });
  const env = {
    DATABASE_URL: url,
    LUMI_SECRET: randomBytes(32).toString('base64url'),
    LUMI_AUTH_CACHE_SECONDS: '60',
  };
  const a = await launch(env);
  const b = await launch(env);
  try {
    const token = await a.api.signIn('admin', PASSWORD);
    const headers = { authorization: `Bearer ${token}` };
    const usage = await b.api.request('GET', '/api/metrics/llm-usage', { token });
    if (usage.totals.requests !== loaded.events) {
      throw new Error(`B counts ${usage.totals.requests} requests, the generator loaded ${loaded.events}`);
    }
    say(
      `Cluster: measuring the dashboards with autocannon on A, then on A and B: ${CONNECTIONS} connections, ` +
        `${DURATION} s per endpoint in ${ROUNDS} rounds…`,
    );
    const targets = ['/api/metrics/llm-usage', '/api/metrics/gemini-usage?hours=168'].flatMap((endpoint) => [
      { name: `GET ${endpoint}`, instances: 1, url: `${a.baseUrl}${endpoint}`, headers },
      {
        name: `GET ${endpoint}`,
        instances: 2,
        parts: [a, b].map((server) => ({ url: `${server.baseUrl}${endpoint}`, headers })),
      },
    ]);
    const figures = await measureInterleaved(targets, {
      connections: CONNECTIONS,
      duration: DURATION,
      rounds: ROUNDS,
    });
    const dashboards = targets.map((target) => ({
      name: target.name,
      instances: target.instances,
      ...figures.get(target),
    }));
    const ingest = [
      await ingestThrough('PostgreSQL, instance A', [a], 'cluster-one'),
      await ingestThrough('PostgreSQL, instances A and B', [a, b], 'cluster-two'),
    ];
    const signOuts = await measureSignOuts(a, b);
    return { loaded, ingest, dashboards, signOuts };
  } finally {
    await shut(b);
    await shut(a);
  }
}

async function main() {
  say(`Lumi Admin benchmark: scratch data in ${scratchDir} (removed at the end).`);
  say(
    `Load average at the start: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (1, 5, 15 min) on ${os.cpus().length} CPUs.`,
  );
  if (DATABASE_URL) {
    // Without autovacuum, the rows ingestion updates leave their old versions until something else removes
    // them, which weighs on PostgreSQL's figures while ingesting: said beside them.
    const { rows } = await withPostgres(DATABASE_URL, (client) => client.query('SHOW autovacuum'));
    say(`PostgreSQL: autovacuum ${rows[0].autovacuum}.`);
  }
  // Every part but `alerts` (in-process, on the sources) runs the built server.
  if ([...PARTS].some((part) => part !== 'alerts')) buildStale(['@lumi/server']);

  const ingest = [];
  const dashboards = [];
  if (PARTS.has('ingest')) {
    if (SQLITE) ingest.push(await benchIngest('SQLite', { DATA_DIR: path.join(scratchDir, 'ingest') }));
    if (DATABASE_URL)
      ingest.push(await benchIngest('PostgreSQL', { DATABASE_URL: await scratchPostgres('ingest') }));
    else say('PostgreSQL: skipped (set DATABASE_URL=postgres://… to include it; a role with CREATEDB).');
  }

  if (PARTS.has('dashboards')) {
    const dashDir = path.join(scratchDir, 'dashboards');
    mkdirSync(dashDir, { recursive: true });
    if (SQLITE) {
      dashboards.push(
        await benchDashboards(
          'SQLite',
          { BENCH_SQLITE_FILE: path.join(dashDir, 'lumi.db') },
          { DATA_DIR: dashDir },
        ),
      );
    }
    rmSync(dashDir, { recursive: true, force: true });
    if (DATABASE_URL) {
      const url = await scratchPostgres('dashboards');
      dashboards.push(
        await benchDashboards('PostgreSQL', { BENCH_DATABASE_URL: url }, { DATABASE_URL: url }),
      );
    }
  }
  if (ingest.length > 0 || dashboards.length > 0) {
    report({
      ingest,
      dashboards,
      batches: BATCHES,
      batchSize: BATCH_SIZE,
      ingestConnections: INGEST_CONNECTIONS,
      connections: CONNECTIONS,
      duration: DURATION,
      rounds: ROUNDS,
      targets: TARGETS,
    });
    for (const d of dashboards) if (d.mixed) reportMixed(d, { connections: CONNECTIONS, targets: TARGETS });
  }

  if (PARTS.has('otlp')) {
    const otlpOptions = {
      password: PASSWORD,
      batches: BATCHES,
      batchSize: BATCH_SIZE,
      connections: INGEST_CONNECTIONS,
      say,
    };
    for (const [label, env] of [
      ['SQLite', { DATA_DIR: path.join(scratchDir, 'otlp') }],
      ...(DATABASE_URL ? [['PostgreSQL', { DATABASE_URL: await scratchPostgres('otlp') }]] : []),
    ]) {
      const server = await launch(env);
      try {
        await measureOtlp(label, server, otlpOptions);
      } finally {
        await shut(server);
      }
    }
  }

  if (PARTS.has('hostile')) {
    await benchHostile('SQLite', { DATA_DIR: path.join(scratchDir, 'hostile') });
    if (DATABASE_URL) await benchHostile('PostgreSQL', { DATABASE_URL: await scratchPostgres('hostile') });
  }

  if (PARTS.has('retention')) {
    const runs = [];
    const dir = path.join(scratchDir, 'retention');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'lumi.db');
    runs.push(
      await benchRetention('SQLite', { BENCH_SQLITE_FILE: file }, { DATA_DIR: dir }, () => {
        const sqlite = new SQLite(file, { readonly: true });
        try {
          return sqlite.prepare('SELECT count(*) AS n FROM llm_calls').get().n;
        } finally {
          sqlite.close();
        }
      }),
    );
    rmSync(dir, { recursive: true, force: true });
    if (DATABASE_URL) {
      const url = await scratchPostgres('retention');
      runs.push(
        await benchRetention('PostgreSQL', { BENCH_DATABASE_URL: url }, { DATABASE_URL: url }, () =>
          withPostgres(url, async (client) =>
            Number((await client.query('SELECT count(*) AS n FROM llm_calls')).rows[0].n),
          ),
        ),
      );
    }
    reportRetention(runs, { perDay: RETENTION_EVENTS_PER_DAY, retentionDays: RETENTION_DAYS });
  }

  if (PARTS.has('cluster')) {
    if (DATABASE_URL) {
      reportCluster(await benchCluster(), {
        batches: BATCHES,
        batchSize: BATCH_SIZE,
        ingestConnections: INGEST_CONNECTIONS,
        connections: CONNECTIONS,
        duration: DURATION,
        rounds: ROUNDS,
        targets: TARGETS,
      });
    } else {
      say('Cluster: skipped, it needs PostgreSQL (set DATABASE_URL=postgres://…; a role with CREATEDB).');
    }
  }

  if (PARTS.has('deliveries')) {
    const runs = [await benchDeliveries('SQLite', { DATA_DIR: path.join(scratchDir, 'deliveries') })];
    if (DATABASE_URL)
      runs.push(await benchDeliveries('PostgreSQL', { DATABASE_URL: await scratchPostgres('deliveries') }));
    reportDeliveries(runs, { ...DELIVERIES, targets: TARGETS });
  }

  if (PARTS.has('render-load')) {
    await benchRenderLoad('SQLite', { DATA_DIR: path.join(scratchDir, 'render-load') });
    if (DATABASE_URL) await benchRenderLoad('PostgreSQL', { DATABASE_URL: await scratchPostgres('render') });
  }

  if (PARTS.has('alerts')) {
    const dir = path.join(scratchDir, 'alerts');
    mkdirSync(dir, { recursive: true });
    const runs = [await benchAlerts('SQLite', { BENCH_SQLITE_FILE: path.join(dir, 'lumi.db') })];
    rmSync(dir, { recursive: true, force: true });
    if (DATABASE_URL)
      runs.push(await benchAlerts('PostgreSQL', { BENCH_DATABASE_URL: await scratchPostgres('alerts') }));
    reportAlerts(runs, { rules: ALERT_RULES, passes: ALERT_PASSES, targets: TARGETS });
  }
}

/**
 * Part `alerts`: the dashboards' llm_call events and the rest of a bot's telemetry in a scratch database,
 * then the evaluation passes, in-process on the server's code (scripts/bench/alerts-pass.ts).
 */
async function benchAlerts(label, env) {
  const llm = await load(env);
  const other = await load(env, 'load-alert-data.ts');
  say(`Alerts on ${label}: ${ALERT_PASSES} evaluation passes of ${ALERT_RULES} rules…`);
  const pass = await load(
    { ...env, BENCH_ALERT_RULES: String(ALERT_RULES), BENCH_ALERT_PASSES: String(ALERT_PASSES) },
    'alerts-pass.ts',
  );
  return { label, events: llm.events + other.events, deliveries: other.deliveries, ...pass };
}

/** Part `deliveries`: the server sending to a fake Bot API without limits of its own (scripts/bench/deliveries.mjs). */
async function benchDeliveries(label, env) {
  const fake = await FakeBotApi.start({ clock: preciseNow });
  fakes.add(fake);
  const server = await launch({
    ...env,
    TELEGRAM_BOT_TOKEN: '123456:bench-not-a-real-token',
    TELEGRAM_API_BASE_URL: fake.url,
  });
  try {
    const token = await server.api.signIn('admin', PASSWORD);
    const { key } = await server.api.createApiKey(token, 'bench deliveries', ['messages:send']);
    const context = { api: server.api, token, key, fake };
    const accepting = await measureAccepting(label, context, DELIVERIES);
    const sending = await measureSending(label, context, DELIVERIES);
    return { label, accepting, sending };
  } finally {
    await shut(server);
    fakes.delete(fake);
    await fake.close();
  }
}

/** Part `render-load`: bursts of deliveries, quiet and beside CPU-bound processes (scripts/bench/render-load.mjs). */
async function benchRenderLoad(label, env) {
  const server = await launch(env);
  try {
    const token = await server.api.signIn('admin', PASSWORD);
    const { key } = await server.api.createApiKey(token, 'bench render load', ['messages:send']);
    printRenderLoad(await measureRenderLoad(label, { api: server.api, token, key }, RENDER_LOAD), say);
  } finally {
    await shut(server);
  }
}

async function benchHostile(label, env) {
  const server = await launch(env);
  try {
    const token = await server.api.signIn('admin', PASSWORD);
    const { key } = await server.api.createApiKey(token, 'hostile', ['ingest:write']);
    printHostile(label, await measureHostile(server.baseUrl, token, key), say);
  } finally {
    await shut(server);
  }
}

try {
  await main();
  await cleanUp();
} catch (error) {
  if (!interrupted) {
    process.stderr.write(
      `\nThe benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    await cleanUp();
    process.exit(1);
  }
}
