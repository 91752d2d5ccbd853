// Part `mixed` of `npm run bench` (scripts/bench.mjs), run by part `dashboards` on its data: the dashboards
// measured again while ingestion runs at a steady rate.
import { LLM_MODELS } from '../demo/simulated-bot.mjs';
import { measureInterleaved } from './autocannon.mjs';
import { fmt, say } from './print.mjs';
import { BATCH_SIZE, CONNECTIONS, DURATION, MIXED_EVENTS_PER_SECOND } from './settings.mjs';
import { startSteadyIngestion } from './steady-ingestion.mjs';

/**
 * The dashboards (`targets`, as autocannon.mjs takes them) measured while ingestion runs at a steady
 * MIXED_EVENTS_PER_SECOND (batches of BATCH_SIZE live llm_calls, from the last minute, every
 * BATCH_SIZE / rate seconds, at most 4 in flight, sent from a worker thread: steady-ingestion.mjs).
 * Every stored batch clears the dashboards' cache, so their answers are mostly computed afresh.
 */
export async function measureMixed(server, { token }, targets) {
  const { key } = await server.api.createApiKey(token, 'bench mixed', ['ingest:write']);
  for (const model of LLM_MODELS.filter((m) => m.price))
    await server.api.setModelPrice(token, model.model, model.price);
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
