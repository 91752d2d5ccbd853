// Throughput and latency of HTTP targets with autocannon, for the dashboard benchmark (scripts/bench.mjs).
import autocannon from 'autocannon';

/** One autocannon run of `seconds` against `url`. */
async function runOne(url, headers, seconds, connections) {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} answers outside 2xx and ${result.errors} errors`);
  }
  return result;
}

/**
 * One run against a target: its `url`, or all its `parts` (several instances of the server) at once with
 * the connections split evenly among them. Over parts, requests add up and a latency percentile is the
 * worst part's: autocannon reports percentiles, not the histogram that would merge them exactly.
 */
async function run(target, seconds, connections) {
  if (!target.parts) return runOne(target.url, target.headers, seconds, connections);
  const share = Math.max(1, Math.round(connections / target.parts.length));
  const results = await Promise.all(
    target.parts.map((part) => runOne(part.url, part.headers, seconds, share)),
  );
  const sum = (pick) => results.reduce((total, r) => total + pick(r), 0);
  const worst = (pick) => Math.max(...results.map(pick));
  return {
    requests: { total: sum((r) => r.requests.total), average: sum((r) => r.requests.average) },
    latency: { p50: worst((r) => r.latency.p50), p99: worst((r) => r.latency.p99) },
  };
}

/**
 * Measures every target for `duration` seconds in all, in `rounds` rounds of one slice each, so that the
 * machine getting busier or quieter during the run (this VM's speed drifts by ±15 %) weighs on every target
 * alike: a ratio then compares figures taken side by side. Each target is warmed up first (JIT, database
 * caches). A target is a `url` with its `headers`, or `parts`, several of those measured at once (run()).
 * Per target: requests per second over all its slices, the median slice's p50 and the worst slice's p99.
 */
export async function measureInterleaved(targets, { connections, duration, rounds }) {
  for (const target of targets) await run(target, 2, connections);
  const slices = new Map(targets.map((target) => [target, []]));
  const seconds = Math.max(1, Math.round(duration / rounds));
  for (let round = 0; round < rounds; round += 1) {
    for (const target of targets) slices.get(target).push(await run(target, seconds, connections));
  }
  return new Map(
    targets.map((target) => {
      const results = slices.get(target);
      const p50s = results.map((r) => r.latency.p50).sort((a, b) => a - b);
      return [
        target,
        {
          perSecond: results.reduce((sum, r) => sum + r.requests.total, 0) / (seconds * results.length),
          p50: p50s[Math.floor(p50s.length / 2)],
          p99: Math.max(...results.map((r) => r.latency.p99)),
          slices: results.map((r) => r.requests.average),
        },
      ];
    }),
  );
}
