// `npm run bench`: prints figures, it is not a test (docs/benchmarks.md).
//  1. Ingestion: events per second through POST /api/ingest/events, batches of 500 llm_call events, against
//     the built server on a scratch SQLite data directory (and on a scratch PostgreSQL database when
//     DATABASE_URL is set).
//  2. Dashboards at scale: loads BENCH_EVENTS (default 10,000,000) llm_call events with the per-call
//     dimensions and their rollups into a scratch database, then measures GET /api/metrics/llm-usage,
//     /api/metrics/gemini-usage?hours=168 and the dimension and latency endpoints (scripts/bench/
//     dashboards.mjs) with autocannon (10 connections, BENCH_DURATION seconds each, in rounds) beside a bare
//     Fastify route returning a small constant body and each dashboard's own answer (scripts/bench/report.mjs
//     judges). With part `mixed` too, then the same dashboards while ingestion runs at a steady
//     BENCH_MIXED_EVENTS_PER_SECOND (default 5,000) events/s (scripts/bench/mixed.mjs).
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
//  10. Calls: with part `dashboards`, on its loaded database, the first page of the Calls list under each
//     filter alone and combined, over 24 hours and 30 days (scripts/bench/calls.mjs); targets p99 100 ms for
//     one filter, 250 ms combined.
//  11. Allowance: the usage of BENCH_ALLOWANCE_CHATS (default 1,000,000) chats and BENCH_ALLOWANCE_USERS
//     (100,000) users in the current month and BENCH_ALLOWANCE_LIMITS (10,000) limits in a scratch database
//     (scripts/bench/load-allowance-data.ts), then POST /api/bot/allowance at an even BENCH_ALLOWANCE_RATE
//     (2,000) checks a second for BENCH_ALLOWANCE_DURATION seconds (scripts/bench/allowance.mjs) beside a bare
//     route answering at the same pace, and the most it answers with 10 connections; on SQLite (and
//     PostgreSQL). Target: p99 ≤ 5 ms at 2,000/s.
// BENCH_PARTS chooses parts (default `ingest,otlp,dashboards,mixed,calls,hostile,retention,cluster,
// deliveries,alerts,render-load,allowance`; cluster needs DATABASE_URL, mixed and calls run with dashboards).
// Each part lives in scripts/bench/<part>.mjs; the BENCH_* settings in scripts/bench/settings.mjs. Everything
// scratch (scripts/bench/scratch.mjs) is removed at the end, also on Ctrl+C.
import os from 'node:os';
import { buildStale } from './lib/build-stale.mjs';
import { alertsPart } from './bench/alerts.mjs';
import { allowancePart } from './bench/allowance.mjs';
import { clusterPart } from './bench/cluster.mjs';
import { dashboardsPart } from './bench/dashboards.mjs';
import { deliveriesPart } from './bench/deliveries.mjs';
import { hostilePart } from './bench/hostile.mjs';
import { ingestPart } from './bench/ingest.mjs';
import { otlpPart } from './bench/otlp.mjs';
import { say } from './bench/print.mjs';
import { renderLoadPart } from './bench/render-load.mjs';
import { report, reportCalls, reportMixed } from './bench/report.mjs';
import { retentionPart } from './bench/retention.mjs';
import { cleanUp, scratchDir, withPostgres } from './bench/scratch.mjs';
import { CONNECTIONS, DATABASE_URL, PARTS, TARGETS, WORKLOAD } from './bench/settings.mjs';

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\nInterrupted: removing the scratch data…\n`);
    cleanUp().finally(() => process.exit(130));
  });
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

  const ingest = PARTS.has('ingest') ? await ingestPart() : [];
  const dashboards = PARTS.has('dashboards') ? await dashboardsPart() : [];
  if (ingest.length > 0 || dashboards.length > 0) {
    report({ ingest, dashboards, ...WORKLOAD });
    for (const d of dashboards) if (d.mixed) reportMixed(d, { connections: CONNECTIONS, targets: TARGETS });
    for (const d of dashboards) if (d.calls) reportCalls(d, { targets: TARGETS });
  }
  if (PARTS.has('otlp')) await otlpPart();
  if (PARTS.has('hostile')) await hostilePart();
  if (PARTS.has('retention')) await retentionPart();
  if (PARTS.has('cluster')) await clusterPart();
  if (PARTS.has('deliveries')) await deliveriesPart();
  if (PARTS.has('render-load')) await renderLoadPart();
  if (PARTS.has('alerts')) await alertsPart();
  if (PARTS.has('allowance')) await allowancePart();
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
