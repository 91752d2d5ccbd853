// Throughput and latency of HTTP targets with autocannon, for the dashboard benchmark (scripts/bench.mjs).
import autocannon from 'autocannon';

/** One autocannon run of `seconds` against `url`. */
async function run(url, headers, seconds, connections) {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} answers outside 2xx and ${result.errors} errors`);
  }
  return result;
}

/**
 * Measures every target for `duration` seconds in all, in `rounds` rounds of one slice each, so that the
 * machine getting busier or quieter during the run (this VM's speed drifts by ±15 %) weighs on every target
 * alike: a ratio then compares figures taken side by side. Each target is warmed up first (JIT, database
 * caches). Per target: requests per second over all its slices, the median slice's p50 and the worst slice's
 * p99.
 */
export async function measureInterleaved(targets, { connections, duration, rounds }) {
  for (const target of targets) await run(target.url, target.headers, 2, connections);
  const slices = new Map(targets.map((target) => [target, []]));
  const seconds = Math.max(1, Math.round(duration / rounds));
  for (let round = 0; round < rounds; round += 1) {
    for (const target of targets)
      slices.get(target).push(await run(target.url, target.headers, seconds, connections));
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
