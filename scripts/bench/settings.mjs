// What a run of `npm run bench` (scripts/bench.mjs) measures: the parts, the workloads' sizes from the
// BENCH_* variables, and the targets the report judges the figures against (docs/benchmarks.md).
import { randomBytes } from 'node:crypto';

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

export const EVENTS = count('BENCH_EVENTS', 10_000_000);
export const BATCHES = count('BENCH_BATCHES', 200);
export const BATCH_SIZE = 500;
export const WARMUP_BATCHES = 10;
export const INGEST_CONNECTIONS = count('BENCH_INGEST_CONNECTIONS', 2);
export const DURATION = count('BENCH_DURATION', 10);
export const CONNECTIONS = 10;
export const ROUNDS = 5;
export const RETENTION_EVENTS_PER_DAY = count('BENCH_RETENTION_EVENTS_PER_DAY', 1_000_000);
export const RETENTION_DAYS = count('BENCH_RETENTION_DAYS', 30);
export const CLUSTER_EVENTS = count('BENCH_CLUSTER_EVENTS', 1_000_000);
export const SIGNOUTS = count('BENCH_SIGNOUTS', 100);
export const ALERT_RULES = count('BENCH_ALERT_RULES', 200);
export const ALERT_PASSES = count('BENCH_ALERT_PASSES', 10);
export const MIXED_EVENTS_PER_SECOND = count('BENCH_MIXED_EVENTS_PER_SECOND', 5_000);
export const DELIVERIES = {
  batches: count('BENCH_DELIVERY_BATCHES', 100),
  batchSize: 100,
  batchConcurrency: 3,
  singles: count('BENCH_DELIVERY_SINGLES', 2000),
  singleConcurrency: 10,
  deliveries: count('BENCH_SEND_DELIVERIES', 900),
  chats: count('BENCH_SEND_CHATS', 60),
};
/**
 * Part `allowance`: the usage of `chats` chats and `users` users and `limits` limits loaded, then
 * POST /api/bot/allowance at a steady `rate` a second for `seconds` (BENCH_ALLOWANCE_DURATION, else
 * BENCH_DURATION when set, else 20) over `connections` connections (a request finding them busy waits for
 * one; none is sent while `maxInFlight` are unanswered), beside a bare route answering at the same pace;
 * then the ceiling with autocannon, `ceilingConnections` connections for `ceilingSeconds`.
 */
export const ALLOWANCE = {
  chats: count('BENCH_ALLOWANCE_CHATS', 1_000_000),
  users: count('BENCH_ALLOWANCE_USERS', 100_000),
  limits: count('BENCH_ALLOWANCE_LIMITS', 10_000),
  rate: count('BENCH_ALLOWANCE_RATE', 2_000),
  seconds: count('BENCH_ALLOWANCE_DURATION', process.env.BENCH_DURATION ? DURATION : 20),
  connections: 32,
  maxInFlight: 1_000,
  ceilingConnections: 10,
  ceilingSeconds: count('BENCH_ALLOWANCE_CEILING_DURATION', 5),
};
export const RENDER_LOAD = {
  requests: count('BENCH_RENDER_REQUESTS', 200),
  hogs: count('BENCH_RENDER_HOGS', 2),
};
export const TARGETS = {
  ingestPerSecond: 20_000,
  p99Ms: 20,
  ratio: 0.5,
  signOutP99Ms: 100,
  acceptedPerSecond: 2_000,
  // Within 5 % of Telegram's 30 messages a second, and never above it.
  sendingPerSecond: 28.5,
  sendingMaxPerSecond: 30,
  alertPassMs: 1000,
  callsOneP99Ms: 100,
  callsCombinedP99Ms: 250,
  allowanceP99Ms: 5,
};
/** How autocannon measures the dashboards: CONNECTIONS at once, DURATION seconds each, in ROUNDS rounds. */
export const AUTOCANNON = { connections: CONNECTIONS, duration: DURATION, rounds: ROUNDS };
/** Part `calls`: an operator or two paging through calls, not a crowd: 2 connections, 4 s per query in 2 rounds. */
export const CALLS_AUTOCANNON = { connections: 2, duration: count('BENCH_CALLS_DURATION', 4), rounds: 2 };
/** The ingestion and dashboard workloads as the report describes them beside their figures. */
export const WORKLOAD = {
  batches: BATCHES,
  batchSize: BATCH_SIZE,
  ingestConnections: INGEST_CONNECTIONS,
  ...AUTOCANNON,
  targets: TARGETS,
};
export const PARTS = new Set(
  (
    process.env.BENCH_PARTS ||
    'ingest,otlp,dashboards,mixed,calls,hostile,retention,cluster,deliveries,alerts,render-load,allowance'
  ).split(','),
);

export const DATABASE_URL = process.env.DATABASE_URL || undefined;
/** BENCH_SQLITE=skip: the parts that run on both databases measure PostgreSQL alone. */
export const SQLITE = process.env.BENCH_SQLITE !== 'skip';
/** The first admin's password on every scratch server. */
export const PASSWORD = randomBytes(18).toString('base64url');
