// Part `allowance` of `npm run bench` (scripts/bench.mjs): the decision a bot asks for before each LLM call,
// POST /api/bot/allowance (docs/operators/limits.md, "How a call is decided"), at a steady
// BENCH_ALLOWANCE_RATE checks a second with BENCH_ALLOWANCE_LIMITS limits and the usage of
// BENCH_ALLOWANCE_CHATS chats in the current month (load-allowance-data.ts; allowance-workload.mjs says
// what), sent at an even pace (paced.mjs), beside a bare Fastify route (bare-server.mjs) answering the same
// requests at the same pace with a constant answer: how much of the latency is this machine and the load
// generator. Then the most checks a second the server answers with 10 connections (autocannon), a figure beside
// the target. On SQLite and, with DATABASE_URL, PostgreSQL.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { root } from '../lib/build-stale.mjs';
import { createProgress } from '../lib/progress.mjs';
import { allowanceBodies, SHARED_LIMITS } from './allowance-workload.mjs';
import { paced } from './paced.mjs';
import {
  cpuPerRequest,
  cpuTime,
  machineTime,
  mainThreadSchedule,
  stolenShare,
  waitedForCpu,
} from './process-cpu.mjs';
import { fmt } from './print.mjs';
import { reportAllowance } from './report.mjs';
import { load, launch, onEachDatabase, shut, withServerKey } from './scratch.mjs';
import { ALLOWANCE, TARGETS } from './settings.mjs';

const ALLOWANCE_PATH = '/api/bot/allowance';
/** Warm-up at the full rate before the figures: compiling, the limit book, the database's caches. */
const WARMUP_SECONDS = 3;

/** Tallies the decisions of the answers (allowed or not, and why). */
function decisions() {
  const tally = { allowed: 0, denied: 0, reasons: {}, failures: {} };
  const onAnswer = (status, text) => {
    if (status < 200 || status >= 300) {
      // By status and detail (the answer's request_id left out), so the kinds of failure add up.
      let detail = text.slice(0, 160);
      try {
        detail = JSON.parse(text).detail ?? detail;
      } catch {
        // Not the server's error shape: its first characters.
      }
      tally.failures[`${status} ${detail}`] = (tally.failures[`${status} ${detail}`] ?? 0) + 1;
      return;
    }
    const answer = JSON.parse(text);
    if (answer.allowed) tally.allowed += 1;
    else tally.denied += 1;
    tally.reasons[answer.reason] = (tally.reasons[answer.reason] ?? 0) + 1;
  };
  return { tally, onAnswer };
}

/**
 * Checks sent to `url` at a steady ALLOWANCE.rate for `seconds`, bodies drawn from `next`; with the CPU the
 * answering process (`pid`) took for each, how long its event loop's thread waited for a CPU while ready,
 * and the share of the machine's CPU time the hypervisor took meanwhile (process-cpu.mjs): the tail latency
 * rises with both.
 */
async function steady(url, key, next, seconds, pid) {
  const bodies = Array.from({ length: ALLOWANCE.rate * seconds }, next);
  const { tally, onAnswer } = decisions();
  const before = cpuTime(pid);
  const machine = machineTime();
  const schedule = mainThreadSchedule(pid);
  const result = await paced({
    url,
    headers: { authorization: `Bearer ${key}` },
    bodies,
    rate: ALLOWANCE.rate,
    connections: ALLOWANCE.connections,
    maxInFlight: ALLOWANCE.maxInFlight,
    onAnswer,
  });
  return {
    ...result,
    ...tally,
    cpu: cpuPerRequest(before, cpuTime(pid), result.answered),
    stolen: stolenShare(machine, machineTime()),
    waited: waitedForCpu(schedule, mainThreadSchedule(pid)),
  };
}

/**
 * The yardstick: the same requests at the same pace to a bare Fastify route that parses them and sends
 * `answer` (a check's answer as the server gave it) back.
 */
async function yardstick(next, answer) {
  const bare = await launch({}, path.join(root, 'scripts/bench/bare-server.mjs'));
  try {
    await fetch(`${bare.baseUrl}/same/allowance`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: answer,
    });
    const url = `${bare.baseUrl}/same/allowance`;
    await steady(url, 'none', next, 1, bare.child.pid);
    return await steady(url, 'none', next, ALLOWANCE.seconds, bare.child.pid);
  } finally {
    await shut(bare);
  }
}

/** The throughput ceiling: as many checks as ALLOWANCE.ceilingConnections connections get answered. */
async function ceiling(server, key, next) {
  const result = await autocannon({
    url: server.baseUrl,
    connections: ALLOWANCE.ceilingConnections,
    duration: ALLOWANCE.ceilingSeconds,
    requests: [
      {
        method: 'POST',
        path: ALLOWANCE_PATH,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: next() }),
      },
    ],
  });
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Waits until the server's allowance reads usage from memory (GET /api/ready: the server loads the month's
 * usage after its start, on PostgreSQL once it counts in memory, as the only instance on its database;
 * docs/operators/limits.md), so the part measures what a running server answers; resolves to the seconds
 * that took.
 */
async function usageInMemory(baseUrl) {
  const started = Date.now();
  for (;;) {
    const { allowance } = await (await fetch(`${baseUrl}/api/ready`)).json();
    if (allowance === 'memory') return (Date.now() - started) / 1000;
    if (Date.now() - started > 300_000) throw new Error('The allowance did not load the usage in 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Loads the workload into a scratch database, starts the server on it and measures. */
async function benchAllowance(label, env) {
  let loaderEnv;
  if (env.DATA_DIR) {
    mkdirSync(env.DATA_DIR, { recursive: true });
    loaderEnv = { BENCH_SQLITE_FILE: path.join(env.DATA_DIR, 'lumi.db') };
  } else {
    loaderEnv = { BENCH_DATABASE_URL: env.DATABASE_URL };
  }
  const loaded = await load(
    {
      BENCH_ALLOWANCE_CHATS: String(ALLOWANCE.chats),
      BENCH_ALLOWANCE_USERS: String(ALLOWANCE.users),
      BENCH_ALLOWANCE_LIMITS: String(ALLOWANCE.limits),
      ...loaderEnv,
    },
    'load-allowance-data.ts',
  );
  // The windows' days and months are UTC's, as the loader counted them.
  const serverEnv = { ...env, LUMI_TIMEZONE: 'UTC' };
  const run = await withServerKey(
    serverEnv,
    'bench allowance',
    ['allowance:read'],
    async (server, { token, key }) => {
      const loadedIn = await usageInMemory(server.baseUrl);
      // The last limit through the API, as an operator adds one: every instance reloads its limit book.
      await server.api.request('POST', '/api/limits', { token, body: SHARED_LIMITS.at(-1) });
      const book = await server.api.request('GET', '/api/bot/limits', { token: key });
      if (book.limits.length !== ALLOWANCE.limits) {
        throw new Error(`The server has ${fmt(book.limits.length)} limits, not ${fmt(ALLOWANCE.limits)}`);
      }
      const next = allowanceBodies(ALLOWANCE);
      const url = `${server.baseUrl}${ALLOWANCE_PATH}`;
      const answer = JSON.stringify(
        await server.api.request('POST', ALLOWANCE_PATH, { token: key, body: next() }),
      );
      const progress = createProgress({ label: `Allowance on ${label}` });
      progress.update(0, `warming up for ${WARMUP_SECONDS} s`);
      await steady(url, key, next, WARMUP_SECONDS, server.child.pid);
      progress.update(0.1, `${fmt(ALLOWANCE.rate)} checks/s for ${ALLOWANCE.seconds} s`);
      const measured = await steady(url, key, next, ALLOWANCE.seconds, server.child.pid);
      progress.update(0.5, `the bare route at ${fmt(ALLOWANCE.rate)}/s for ${ALLOWANCE.seconds} s`);
      const bare = await yardstick(next, answer);
      progress.update(0.9, `the ceiling, ${ALLOWANCE.ceilingConnections} connections`);
      const most = await ceiling(server, key, next);
      progress.finish();
      return {
        label,
        loaded: { ...loaded, inMemorySeconds: loadedIn },
        steady: measured,
        bare,
        ceiling: most,
      };
    },
  );
  if (env.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
  return run;
}

/** Measures and reports the part. */
export async function allowancePart() {
  const shared = SHARED_LIMITS.length;
  if (ALLOWANCE.limits <= shared || ALLOWANCE.limits - shared > ALLOWANCE.chats) {
    throw new Error(
      `BENCH_ALLOWANCE_LIMITS must be above ${shared} and at most BENCH_ALLOWANCE_CHATS + ${shared}`,
    );
  }
  const runs = await onEachDatabase('allowance', benchAllowance);
  reportAllowance(runs, { ...ALLOWANCE, targets: TARGETS });
}
