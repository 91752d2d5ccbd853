// A load at a fixed rate for `npm run bench` (scripts/bench.mjs): POSTs sent on a schedule, one every 1/rate
// seconds whether or not the earlier ones were answered (an open loop, as many independent clients ask), over
// a pool of keep-alive connections; a request finding them all busy waits for one, and that wait counts in
// its latency (a connection per request instead drowns a busy machine in connecting).
// autocannon's `overallRate` does not give that: each of its connections sends its share of a second back to
// back as the second begins (lib/httpClient.js, reqsMadeThisSecond), so 2,000 a second arrive as one burst a
// second, and its correction for coordinated omission assumes requests ceil(1 / rate) = 1 ms apart on every
// connection. No dependency of ours sends at an even pace, so this does, with node:http alone.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { percentile } from './percentile.mjs';

/** A request without an answer by then counts as an error, so a stuck server cannot hold the run. */
const ANSWER_TIMEOUT_MS = 60_000;

const figures = (sorted) => ({
  p50: percentile(sorted, 50),
  p99: percentile(sorted, 99),
  max: sorted.at(-1) ?? 0,
});

/**
 * Sends `bodies.length` POSTs of `bodies` to `url` at `rate` a second over at most `connections` connections
 * and waits for every answer. `onAnswer(status, text)` sees each answer. A request due while `maxInFlight`
 * are unanswered is not sent (counted as skipped), so a server far behind is not buried. Returns latencies in
 * ms from sending (waiting for a free connection included) to the answer's last byte, how late the requests
 * left against their schedule (`lag`: this process's own delays, to be small beside the latencies), the rates
 * sent and answered, statuses and errors.
 */
export async function paced({ url, headers, bodies, rate, connections, maxInFlight, onAnswer }) {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const interval = 1000 / rate;
  const latencies = [];
  const lags = [];
  const statuses = new Map();
  const errors = new Map();
  let inFlight = 0;
  let skipped = 0;
  let lastAnswer = 0;

  const send = (body, due) =>
    new Promise((resolve) => {
      inFlight += 1;
      const sent = performance.now();
      lags.push(sent - due);
      let settled = false;
      const settle = (error, status, text) => {
        if (settled) return;
        settled = true;
        inFlight -= 1;
        if (error) {
          errors.set(error.message, (errors.get(error.message) ?? 0) + 1);
        } else {
          lastAnswer = performance.now();
          latencies.push(lastAnswer - sent);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          onAnswer(status, text);
        }
        resolve();
      };
      const request = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
          timeout: ANSWER_TIMEOUT_MS,
        },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('error', (error) => settle(error));
          response.on('end', () => settle(null, response.statusCode, Buffer.concat(chunks).toString()));
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
      request.on('error', (error) => settle(error));
      request.end(body);
    });

  const pending = [];
  const start = performance.now() + 20;
  let next = 0;
  while (next < bodies.length) {
    const now = performance.now();
    // Every request due by now leaves now: a timer cannot wake every 0.5 ms, so a few go together.
    while (next < bodies.length && start + next * interval <= now) {
      if (inFlight >= maxInFlight) skipped += 1;
      else pending.push(send(bodies[next], start + next * interval));
      next += 1;
    }
    if (next < bodies.length) await sleep(Math.max(0, start + next * interval - performance.now()));
  }
  const lastSent = performance.now();
  await Promise.all(pending);
  agent.destroy();

  const sentCount = bodies.length - skipped;
  return {
    sent: sentCount,
    skipped,
    answered: latencies.length,
    sentPerSecond: sentCount / ((lastSent - start) / 1000),
    answeredPerSecond: latencies.length / ((lastAnswer - start) / 1000),
    latency: figures(latencies.sort((a, b) => a - b)),
    lag: figures(lags.sort((a, b) => a - b)),
    statuses: Object.fromEntries(statuses),
    errors: Object.fromEntries(errors),
  };
}
