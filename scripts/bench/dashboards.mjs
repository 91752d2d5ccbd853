// Part `dashboards` of `npm run bench` (scripts/bench.mjs): BENCH_EVENTS llm_call events with their rollups
// in a scratch database (load-llm-calls.ts), then the dashboard endpoints (dashboardEndpoints()) measured
// with autocannon beside a bare Fastify route (bare-server.mjs) returning a small constant body and each
// dashboard's own answer; with part `mixed` too, again while ingestion runs (mixed.mjs); with part `calls`,
// the Calls list's first page under each filter (calls.mjs). On SQLite and, with DATABASE_URL, PostgreSQL.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { root } from '../lib/build-stale.mjs';
import { measureInterleaved } from './autocannon.mjs';
import { measureCalls } from './calls.mjs';
import { measureMixed } from './mixed.mjs';
import { say } from './print.mjs';
import { launch, load, scratchDir, scratchPostgres, shut } from './scratch.mjs';
import {
  AUTOCANNON,
  CONNECTIONS,
  DATABASE_URL,
  DURATION,
  PARTS,
  PASSWORD,
  ROUNDS,
  SQLITE,
} from './settings.mjs';

/** The part's figures, one entry per database. */
export async function dashboardsPart() {
  const dashboards = [];
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
    dashboards.push(await benchDashboards('PostgreSQL', { BENCH_DATABASE_URL: url }, { DATABASE_URL: url }));
  }
  return dashboards;
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
    const dashboardTarget = (endpoint) => ({
      name: `GET ${labelOf(endpoint)}`,
      url: `${server.baseUrl}${endpoint}`,
      headers,
    });
    for (const [index, endpoint] of endpoints.entries()) {
      const target = dashboardTarget(endpoint);
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
    const figures = await measureInterleaved(targets, AUTOCANNON);
    const rows = targets
      .filter((target) => ![...sameBody.values()].some(({ same }) => same === target))
      .map((target) => {
        const row = { name: target.name, reference: target.reference, ...figures.get(target) };
        const twin = sameBody.get(target);
        if (twin) Object.assign(row, { bytes: twin.bytes, sameBody: figures.get(twin.same).perSecond });
        return row;
      });
    const mixed = PARTS.has('mixed')
      ? await measureMixed(server, session, endpoints.map(dashboardTarget))
      : null;
    const calls = PARTS.has('calls') ? await measureCalls(server, session) : null;
    return { label, loaded, rows, mixed, calls };
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
