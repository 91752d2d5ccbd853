// Part `retention` of `npm run bench` (scripts/bench.mjs): RETENTION_EVENTS_PER_DAY llm_call rows a day for
// RETENTION_DAYS + 1 days in a scratch database (load-retention-days.ts), the server started on it with
// RETENTION_DAYS, and the duration of its first retention run (which removes the oldest day) read from
// its log; on SQLite and, with DATABASE_URL, PostgreSQL.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { fmt, say } from './print.mjs';
import { reportRetention } from './report.mjs';
import { launch, load, scratchDir, scratchPostgres, shut, withPostgres } from './scratch.mjs';
import { DATABASE_URL, RETENTION_DAYS, RETENTION_EVENTS_PER_DAY } from './settings.mjs';

const RETENTION_MESSAGE = 'telemetry retention: pruned old events and rollups';

/** Measures and reports the part. */
export async function retentionPart() {
  const runs = [];
  const dir = path.join(scratchDir, 'retention');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'lumi.db');
  runs.push(
    await benchRetention('SQLite', { BENCH_SQLITE_FILE: file }, { DATA_DIR: dir }, () => {
      const sqlite = new SQLite(file, { readonly: true });
      try {
        return sqlite.prepare('SELECT count(*) AS n FROM llm_calls').get().n;
      } finally {
        sqlite.close();
      }
    }),
  );
  rmSync(dir, { recursive: true, force: true });
  if (DATABASE_URL) {
    const url = await scratchPostgres('retention');
    runs.push(
      await benchRetention('PostgreSQL', { BENCH_DATABASE_URL: url }, { DATABASE_URL: url }, () =>
        withPostgres(url, async (client) =>
          Number((await client.query('SELECT count(*) AS n FROM llm_calls')).rows[0].n),
        ),
      ),
    );
  }
  reportRetention(runs, { perDay: RETENTION_EVENTS_PER_DAY, retentionDays: RETENTION_DAYS });
}

/**
 * Loads the retention workload, starts the server on it and reads its first retention run (the job starts
 * at once on a fresh database) from its log; then counts the rows left with `countLeft`.
 */
async function benchRetention(label, loaderEnv, serverEnv, countLeft) {
  const loaded = await load(
    {
      BENCH_RETENTION_EVENTS_PER_DAY: String(RETENTION_EVENTS_PER_DAY),
      BENCH_RETENTION_DAYS: String(RETENTION_DAYS),
      ...loaderEnv,
    },
    'load-retention-days.ts',
  );
  say(`Retention on ${label}: starting the server with RETENTION_DAYS=${RETENTION_DAYS}…`);
  const server = await launch({ RETENTION_DAYS: String(RETENTION_DAYS), ...serverEnv }, undefined, {
    logs: true,
  });
  let entry;
  try {
    entry = await server.logEntry(RETENTION_MESSAGE, 30 * 60_000);
  } finally {
    await shut(server);
  }
  const left = await countLeft();
  if (left !== loaded.events - entry.events) {
    throw new Error(`${fmt(left)} rows left after removing ${fmt(entry.events)} of ${fmt(loaded.events)}`);
  }
  return { label, loaded, removed: entry.events, partitions: entry.partitions, ms: entry.ms, left };
}
