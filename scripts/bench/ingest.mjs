// Part `ingest` of `npm run bench` (scripts/bench.mjs): events per second through POST /api/ingest/events,
// batches of BATCH_SIZE llm_call events (workload.mjs) with INGEST_CONNECTIONS requests in flight, on SQLite
// and, with DATABASE_URL, PostgreSQL. The cluster part runs the same workload through two instances.
import path from 'node:path';
import { LLM_MODELS } from '../demo/simulated-bot.mjs';
import { createProgress } from '../lib/progress.mjs';
import { percentile } from './percentile.mjs';
import { fmt, say } from './print.mjs';
import { scratchDir, scratchPostgres, withServer } from './scratch.mjs';
import {
  BATCH_SIZE,
  BATCHES,
  DATABASE_URL,
  INGEST_CONNECTIONS,
  PASSWORD,
  SQLITE,
  WARMUP_BATCHES,
} from './settings.mjs';
import { ingestBodies } from './workload.mjs';

/** The part's figures, one row per database. */
export async function ingestPart() {
  const ingest = [];
  const benchIngest = (label, env) => withServer(env, (server) => ingestThrough(label, [server], 'bench'));
  if (SQLITE) ingest.push(await benchIngest('SQLite', { DATA_DIR: path.join(scratchDir, 'ingest') }));
  if (DATABASE_URL)
    ingest.push(await benchIngest('PostgreSQL', { DATABASE_URL: await scratchPostgres('ingest') }));
  else say('PostgreSQL: skipped (set DATABASE_URL=postgres://… to include it; a role with CREATEDB).');
  return ingest;
}

/**
 * The ingestion workload through `servers` at once (instances on one database): INGEST_CONNECTIONS
 * concurrent requests to each, taking batches from one queue. `tag` keeps the events' ids apart from other
 * runs on the same database.
 */
export async function ingestThrough(label, servers, tag) {
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
