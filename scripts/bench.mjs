// `npm run bench`: prints figures, it is not a test (README, Performance).
//  1. Ingestion: events per second through POST /api/ingest/events, batches of 500 llm_call events, against
//     the built server on a scratch SQLite data directory (and on a scratch PostgreSQL database when
//     DATABASE_URL is set).
//  2. Dashboards at scale: loads BENCH_EVENTS (default 10,000,000) llm_call events with their rollups into a
//     scratch database, then measures GET /api/metrics/llm-usage and /api/metrics/gemini-usage?hours=168
//     with autocannon (10 connections, BENCH_DURATION seconds each, in rounds) beside a bare Fastify route
//     returning a small constant body and each dashboard's own answer (scripts/bench/report.mjs judges).
//  3. Hostile requests: the longest the worst requests a client can send hold the server (scripts/bench/
//     hostile.mjs), on SQLite (and PostgreSQL).
// BENCH_PARTS chooses parts (default `ingest,dashboards,hostile`).
// Everything scratch is removed at the end, also on Ctrl+C.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildStale, root } from './lib/build-stale.mjs';
import { measureInterleaved } from './bench/autocannon.mjs';
import { measureHostile, printHostile } from './bench/hostile.mjs';
import { report } from './bench/report.mjs';
import { ingestBodies } from './bench/workload.mjs';
import { LumiApi } from './lib/lumi-api.mjs';
import { createProgress } from './lib/progress.mjs';
import { freePort, startServer, stopServer } from './lib/server-process.mjs';
import { LLM_MODELS } from './demo/simulated-bot.mjs';

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
const TARGETS = { ingestPerSecond: 20_000, p99Ms: 20, ratio: 0.5 };
const PARTS = new Set((process.env.BENCH_PARTS || 'ingest,dashboards,hostile').split(','));

const DATABASE_URL = process.env.DATABASE_URL || undefined;
const PASSWORD = randomBytes(18).toString('base64url');
const fmt = (n) => Math.round(n).toLocaleString('en');
const say = (text = '') => process.stdout.write(`${text}\n`);

// Scratch resources, removed by cleanUp() however the run ends.
const scratchDir = mkdtempSync(path.join(os.tmpdir(), 'lumi-bench-'));
const scratchDatabases = [];
const children = new Set();

async function cleanUp() {
  for (const child of children) await stopServer(child);
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

/** The built server on a free port with the given database; resolves once it answers. */
async function launch(env, script) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = await startServer({
    script,
    baseUrl,
    // The server's own stdout (the first-admin notice) is not part of the figures.
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LUMI_ADMIN_USERNAME: 'admin',
      LUMI_ADMIN_PASSWORD: PASSWORD,
      DATABASE_URL: '',
      // Also with PostgreSQL: the generated signing key must not land in the real ./data.
      DATA_DIR: path.join(scratchDir, 'server'),
      ...env,
    },
  });
  children.add(server);
  return { ...server, api: new LumiApi(baseUrl), baseUrl };
}

async function shut(server) {
  children.delete(server);
  await stopServer(server);
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function benchIngest(label, env) {
  const server = await launch(env);
  try {
    const token = await server.api.signIn('admin', PASSWORD);
    const { key } = await server.api.createApiKey(token, 'bench', ['ingest:write']);
    for (const model of LLM_MODELS.filter((m) => m.price))
      await server.api.setModelPrice(token, model.model, model.price);

    const warmup = ingestBodies(WARMUP_BATCHES, BATCH_SIZE, 'warmup');
    for (const body of warmup) await server.api.ingest(key, body);

    const bodies = ingestBodies(BATCHES, BATCH_SIZE, 'bench');
    const latencies = [];
    let next = 0;
    let accepted = 0;
    const progress = createProgress({ label: `Ingestion on ${label}` });
    const started = process.hrtime.bigint();
    const worker = async () => {
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
    await Promise.all(Array.from({ length: INGEST_CONNECTIONS }, worker));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    progress.finish(`Ingestion on ${label}: ${fmt(accepted)} events in ${seconds.toFixed(1)} s.`);
    if (accepted !== BATCHES * BATCH_SIZE) {
      throw new Error(`Only ${accepted} of ${BATCHES * BATCH_SIZE} events were accepted`);
    }
    latencies.sort((a, b) => a - b);
    return {
      label,
      events: accepted,
      seconds,
      perSecond: accepted / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  } finally {
    await shut(server);
  }
}

/** Runs the generator (TypeScript, through tsx) that loads the events and rollups into a scratch database. */
function load(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts/bench/load-llm-calls.ts')],
      {
        cwd: root,
        env: { ...process.env, BENCH_EVENTS: String(EVENTS), ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const handle = { child, exited: new Promise((done) => child.once('exit', done)) };
    children.add(handle);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      children.delete(handle);
      if (code !== 0) reject(new Error(`The generator failed (exit code ${code}); see above.`));
      else resolve(JSON.parse(output.trim().split('\n').at(-1)));
    });
  });
}

async function benchDashboards(label, loaderEnv, serverEnv) {
  const loaded = await load(loaderEnv);
  const server = await launch(serverEnv);
  const bare = await launch({}, path.join(root, 'scripts/bench/bare-server.mjs'));
  try {
    const token = await server.api.signIn('admin', PASSWORD);
    const headers = { authorization: `Bearer ${token}` };
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
    for (const [index, endpoint] of [
      '/api/metrics/llm-usage',
      '/api/metrics/gemini-usage?hours=168',
    ].entries()) {
      const target = { name: `GET ${endpoint}`, url: `${server.baseUrl}${endpoint}`, headers };
      // The bare route again, sending this endpoint's answer: the share left once the size is equal.
      const answer = await server.api.request('GET', endpoint, { token });
      const stored = await fetch(`${bare.baseUrl}/same/${index}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(answer),
      });
      const same = { name: `bare route, ${endpoint}'s answer`, url: `${bare.baseUrl}/same/${index}` };
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
    return { label, loaded, rows };
  } finally {
    await shut(bare);
    await shut(server);
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
  buildStale(['@lumi/server']);

  const ingest = [];
  const dashboards = [];
  if (PARTS.has('ingest')) {
    ingest.push(await benchIngest('SQLite', { DATA_DIR: path.join(scratchDir, 'ingest') }));
    if (DATABASE_URL)
      ingest.push(await benchIngest('PostgreSQL', { DATABASE_URL: await scratchPostgres('ingest') }));
    else say('PostgreSQL: skipped (set DATABASE_URL=postgres://… to include it; a role with CREATEDB).');
  }

  if (PARTS.has('dashboards')) {
    const dashDir = path.join(scratchDir, 'dashboards');
    mkdirSync(dashDir, { recursive: true });
    dashboards.push(
      await benchDashboards(
        'SQLite',
        { BENCH_SQLITE_FILE: path.join(dashDir, 'lumi.db') },
        { DATA_DIR: dashDir },
      ),
    );
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
  }

  if (PARTS.has('hostile')) {
    await benchHostile('SQLite', { DATA_DIR: path.join(scratchDir, 'hostile') });
    if (DATABASE_URL) await benchHostile('PostgreSQL', { DATABASE_URL: await scratchPostgres('hostile') });
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
