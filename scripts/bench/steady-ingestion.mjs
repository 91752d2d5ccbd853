// The mixed run's ingestion (scripts/bench.mjs, part `mixed`): batches of live llm_calls at a steady rate,
// sent from a worker thread. autocannon times the dashboards' requests in the bench's own event loop, so
// building and sending a 130 KB batch there would count its own milliseconds against their latency; in a
// worker, the load generator's work stays out of the figures and only the server's answer time is left.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { LumiApi } from '../lib/lumi-api.mjs';
import { liveBody } from './workload.mjs';

/** At most this many batches wait for their answer at once; a tick beyond it is skipped and counted. */
const MAX_IN_FLIGHT = 4;

function percentile(sorted, p) {
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Starts ingesting `eventsPerSecond` in batches of `batchSize` with the API key `key`; `stop()` ends it,
 * waits for the batches in flight and answers the rate reached, the skipped ticks and the batches' p99.
 */
export function startSteadyIngestion({ baseUrl, key, eventsPerSecond, batchSize, tag }) {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { baseUrl, key, eventsPerSecond, batchSize, tag },
  });
  const result = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The ingestion worker exited with code ${code}`)));
  });
  return {
    stop() {
      worker.postMessage('stop');
      return result.finally(() => worker.terminate());
    },
  };
}

async function run({ baseUrl, key, eventsPerSecond, batchSize, tag }) {
  const api = new LumiApi(baseUrl);
  const everyMs = (batchSize / eventsPerSecond) * 1000;
  const started = performance.now();
  const latencies = [];
  let batch = 0;
  let inFlight = 0;
  let accepted = 0;
  let skipped = 0;
  let failure = null;
  const timer = setInterval(() => {
    if (inFlight >= MAX_IN_FLIGHT) {
      skipped += 1;
      return;
    }
    inFlight += 1;
    const body = liveBody(batch, batchSize, tag);
    batch += 1;
    const t0 = performance.now();
    api
      .ingest(key, body)
      .then((answer) => {
        accepted += answer.accepted;
        latencies.push(performance.now() - t0);
      })
      .catch((error) => (failure ??= String(error?.message ?? error)))
      .finally(() => (inFlight -= 1));
  }, everyMs);
  await new Promise((resolve) => parentPort.once('message', resolve));
  clearInterval(timer);
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  parentPort.postMessage({
    failure,
    perSecond: accepted / seconds,
    skipped,
    batchP99: percentile(latencies, 99),
  });
}

if (!isMainThread) await run(workerData);
