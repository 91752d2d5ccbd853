import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALIDATION_CHANNEL, PostgresInvalidation } from '../src/modules/cluster/invalidation.js';
import { JobScheduler } from '../src/modules/cluster/job-scheduler.js';
import type { Database } from '../src/db/database.js';
import { systemClock } from '../src/lib/time.js';
import { eventually } from './cluster-process.js';
import { createPostgresDatabase, dialects, useTestApp } from './helper.js';

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };

describe.each(dialects)('job leases on %s', (dialect) => {
  const t = useTestApp(dialect);
  const schedulers: JobScheduler[] = [];
  const scheduler = (name: string, leaseMs = 3000) => {
    const made = new JobScheduler(t.app.db, systemClock, name, quiet, leaseMs);
    schedulers.push(made);
    return made;
  };
  const stopAll = () => Promise.all(schedulers.splice(0).map((s) => s.stop()));

  it('runs a job on one scheduler only, and on the other once the first stops', async () => {
    const runs: string[] = [];
    const [first, second] = [scheduler('first'), scheduler('second')];
    for (const s of [first, second]) {
      s.add({ name: 'sweep', intervalMs: 100, run: async () => runs.push(s.instanceId) });
    }
    try {
      first.start();
      await eventually(() => (runs.length > 0 ? true : undefined), 10_000, 'a first run');
      second.start();
      await eventually(() => (runs.length >= 4 ? true : undefined), 10_000, 'more runs');
      expect(new Set(runs)).toEqual(new Set(['first']));
      expect(first.leading()).toEqual(['sweep']);
      expect(second.leading()).toEqual([]);

      await first.stop();
      const lease = await t.app.db.selectFrom('job_leases').selectAll().executeTakeFirstOrThrow();
      // Released: free, or already taken by the second scheduler's next check.
      expect(lease).toMatchObject({ name: 'sweep', last_run_by: 'first', last_error: null });
      expect(lease.holder).not.toBe('first');
      await eventually(() => (runs.includes('second') ? true : undefined), 10_000, 'the takeover');
      expect(second.leading()).toEqual(['sweep']);
    } finally {
      await stopAll();
    }
  });

  it('never runs a job twice at once, even when it outlasts the lease, and records a failure', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    const slowJob = {
      name: 'slow',
      intervalMs: 50,
      run: async () => {
        active += 1;
        most = Math.max(most, active);
        runs += 1;
        await sleep(3500); // longer than the 3 s lease: the holder keeps renewing it meanwhile
        active -= 1;
        if (runs === 1) throw new Error('the first run fails');
      },
    };
    const [one, two] = [scheduler('one'), scheduler('two')];
    one.add(slowJob);
    two.add(slowJob);
    try {
      one.start();
      two.start();
      await eventually(() => (runs >= 2 ? true : undefined), 20_000, 'two runs');
      expect(most).toBe(1);
      await eventually(
        async () => {
          const lease = await t.app.db.selectFrom('job_leases').selectAll().executeTakeFirst();
          return lease?.last_error === 'the first run fails' ? lease : undefined;
        },
        5_000,
        'the failure on record',
      );
    } finally {
      await stopAll();
    }
    expect(most).toBe(1);
  });
});

describe.skipIf(!dialects.includes('postgres'))('invalidation between instances over PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let db: Kysely<Database>;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 3 }) }),
    });
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it("clears the other instance's entries, its own once, and everything again after a lost connection", async () => {
    const a = new PostgresInvalidation(db, database.url, 'a', quiet);
    const b = new PostgresInvalidation(db, database.url, 'b', quiet);
    const heard = { a: [] as string[], b: [] as string[] };
    for (const [name, bus] of [
      ['a', a],
      ['b', b],
    ] as const) {
      bus.on('access', () => heard[name].push('access'));
      bus.on('telemetry', () => heard[name].push('telemetry'));
    }
    await Promise.all([a.start(), b.start()]);
    try {
      await a.publish('access');
      await eventually(() => (heard.b.length === 1 ? true : undefined), 5_000, 'b to hear it');
      expect(heard).toEqual({ a: ['access'], b: ['access'] });

      // Foreign or malformed payloads on the channel change nothing.
      await sql`select pg_notify(${INVALIDATION_CHANNEL}, 'not json'), pg_notify(${INVALIDATION_CHANNEL}, '{"topic":"users"}')`.execute(
        db,
      );
      await a.publish('telemetry');
      await eventually(() => (heard.b.length === 2 ? true : undefined), 5_000, 'b to hear telemetry');
      expect(heard.b).toEqual(['access', 'telemetry']);

      // B's listening connection dies: B forgets everything at once, reconnects, and hears again.
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query = ${`LISTEN ${INVALIDATION_CHANNEL}`}
          and pid <> pg_backend_pid()`.execute(db);
      await eventually(() => (heard.b.length >= 4 ? true : undefined), 5_000, 'b to forget everything');
      expect(heard.b.slice(2, 4).sort()).toEqual(['access', 'telemetry']);
      heard.b.length = 0;
      await eventually(
        async () => {
          await a.publish('access');
          return heard.b.includes('access') ? true : undefined;
        },
        10_000,
        'b to listen again',
      );
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
