/**
 * Uncached answer time of the top chats and top users (docs/operators/metrics.md), in-process, on a database loaded by
 * load-llm-calls.ts: for ranges of 1, 7, 30 and 90 days ending today, each run answers chats then users
 * at `BENCH_LIMIT` (default 10) and its time is halved. With BENCH_BEFORE_SQLITE_FILE or
 * BENCH_BEFORE_DATABASE_URL (a copy of the database loaded before migration 20261129090000-llm-spend-reads,
 * left unmigrated), the answer of every row summed (`rankAllSpenders`, as before the migration) is timed on
 * it too, in runs interleaved with the new ones, so a busy machine slows both alike.
 *
 * Run: BENCH_SQLITE_FILE=… [BENCH_BEFORE_SQLITE_FILE=…] npx tsx scripts/bench/top-spenders.ts
 */
import { openDatabase } from '../../apps/server/src/db/connection.js';
import {
  rankAllSpenders,
  topSpenders,
} from '../../apps/server/src/modules/telemetry-store/top-spenders.repository.js';
import { DAY_MS, openScratch } from './scratch-db.js';

const RUNS = 31;
const limit = Number(process.env.BENCH_LIMIT ?? 10);
const { handle } = await openScratch();
const beforeUrl = process.env.BENCH_BEFORE_DATABASE_URL;
const beforeFile = process.env.BENCH_BEFORE_SQLITE_FILE;
const before =
  beforeUrl || beforeFile ? openDatabase({ databaseUrl: beforeUrl, sqliteFile: beforeFile }) : null;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const quantile = (times: number[], q: number) =>
  [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * q))]!.toFixed(1);

for (const days of [1, 7, 30, 90]) {
  const from = day(Date.now() - (days - 1) * DAY_MS);
  const to = day(Date.now());
  const times: Record<string, number[]> = { before: [], after: [] };
  for (let run = 0; run < RUNS; run += 1) {
    const sides = [{ name: 'after', db: handle.db, read: topSpenders }];
    if (before) sides.push({ name: 'before', db: before.db, read: rankAllSpenders });
    for (const { name, db, read } of sides) {
      const start = performance.now();
      await read(db, 'chats', from, to, limit);
      await read(db, 'users', from, to, limit);
      times[name]!.push((performance.now() - start) / 2);
    }
  }
  const line = Object.entries(times)
    .filter(([, list]) => list.length > 0)
    .map(([name, list]) => `${name}: median ${quantile(list, 0.5)} ms, p90 ${quantile(list, 0.9)} ms`);
  console.log(`${handle.dialect} ${days} d (limit ${limit}): ${line.join(' | ')}`);
}
await before?.db.destroy();
await handle.db.destroy();
