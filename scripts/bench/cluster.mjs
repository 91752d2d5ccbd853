// Part `cluster` of `npm run bench` (scripts/bench.mjs), PostgreSQL only: two instances on one scratch
// database holding CLUSTER_EVENTS events, beside one: ingestion through both, the two dashboards through
// both, and how soon a sign-out on one is refused by the other (SIGNOUTS sessions).
import { randomBytes } from 'node:crypto';
import { createProgress } from '../lib/progress.mjs';
import { measureInterleaved } from './autocannon.mjs';
import { ingestThrough } from './ingest.mjs';
import { percentile } from './percentile.mjs';
import { say } from './print.mjs';
import { reportCluster } from './report.mjs';
import { launch, load, scratchPostgres, shut } from './scratch.mjs';
import {
  AUTOCANNON,
  CLUSTER_EVENTS,
  CONNECTIONS,
  DATABASE_URL,
  DURATION,
  PASSWORD,
  ROUNDS,
  SIGNOUTS,
  WORKLOAD,
} from './settings.mjs';

/** Measures and reports the part, or says it is skipped without PostgreSQL. */
export async function clusterPart() {
  if (DATABASE_URL) reportCluster(await benchCluster(), WORKLOAD);
  else say('Cluster: skipped, it needs PostgreSQL (set DATABASE_URL=postgres://…; a role with CREATEDB).');
}

/** Sign-ins on A, sign-outs on A, and how long B goes on accepting the signed-out session; in ms. */
async function measureSignOuts(a, b) {
  const latencies = [];
  const progress = createProgress({ label: 'Sign-outs through A, seen by B' });
  for (let i = 0; i < SIGNOUTS; i += 1) {
    const token = await a.api.signIn('admin', PASSWORD);
    // Twice: B now holds the principal in its cache, which alone would accept it for 60 s.
    for (let k = 0; k < 2; k += 1) await b.api.request('GET', '/api/auth/me', { token });
    await a.api.request('POST', '/api/auth/logout', { token });
    const signedOut = performance.now();
    for (;;) {
      const response = await fetch(`${b.baseUrl}/api/auth/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      if (response.status === 401) break;
      if (!response.ok) throw new Error(`GET /api/auth/me on B answered ${response.status}`);
      if (performance.now() - signedOut > 10_000) {
        throw new Error('B still accepted a signed-out session 10 s after the sign-out on A');
      }
    }
    latencies.push(performance.now() - signedOut);
    progress.update((i + 1) / SIGNOUTS, `${i + 1} of ${SIGNOUTS} sessions`);
  }
  progress.finish();
  latencies.sort((x, y) => x - y);
  return {
    count: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
  };
}

/**
 * Two instances, A and B, on one scratch PostgreSQL database, as behind a load balancer: the same secret,
 * and a 60-second principal cache so that only the invalidation notification can make B refuse a session
 * signed out on A at once. Each figure with A alone, then with A and B.
 */
async function benchCluster() {
  const url = await scratchPostgres('cluster');
  const loaded = await load({ BENCH_DATABASE_URL: url, BENCH_EVENTS: String(CLUSTER_EVENTS) });
  const env = {
    DATABASE_URL: url,
    LUMI_SECRET: randomBytes(32).toString('base64url'),
    LUMI_AUTH_CACHE_SECONDS: '60',
  };
  const a = await launch(env);
  const b = await launch(env);
  try {
    const token = await a.api.signIn('admin', PASSWORD);
    const headers = { authorization: `Bearer ${token}` };
    const usage = await b.api.request('GET', '/api/metrics/llm-usage', { token });
    if (usage.totals.requests !== loaded.events) {
      throw new Error(`B counts ${usage.totals.requests} requests, the generator loaded ${loaded.events}`);
    }
    say(
      `Cluster: measuring the dashboards with autocannon on A, then on A and B: ${CONNECTIONS} connections, ` +
        `${DURATION} s per endpoint in ${ROUNDS} rounds…`,
    );
    const targets = ['/api/metrics/llm-usage', '/api/metrics/gemini-usage?hours=168'].flatMap((endpoint) => [
      { name: `GET ${endpoint}`, instances: 1, url: `${a.baseUrl}${endpoint}`, headers },
      {
        name: `GET ${endpoint}`,
        instances: 2,
        parts: [a, b].map((server) => ({ url: `${server.baseUrl}${endpoint}`, headers })),
      },
    ]);
    const figures = await measureInterleaved(targets, AUTOCANNON);
    const dashboards = targets.map((target) => ({
      name: target.name,
      instances: target.instances,
      ...figures.get(target),
    }));
    const ingest = [
      await ingestThrough('PostgreSQL, instance A', [a], 'cluster-one'),
      await ingestThrough('PostgreSQL, instances A and B', [a, b], 'cluster-two'),
    ];
    const signOuts = await measureSignOuts(a, b);
    return { loaded, ingest, dashboards, signOuts };
  } finally {
    await shut(b);
    await shut(a);
  }
}
