import type { ApiKeyCreated, IngestResult, LlmUsage, User } from '@lumi/contract';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { eventually, ServerProcess } from './cluster-process.js';
import { ADMIN, createPostgresDatabase } from './helper.js';
import { events } from './telemetry-helper.js';

/**
 * Several instances (docs/operators/postgresql-and-instances.md): two real server processes on one PostgreSQL database behave as one server. Each
 * instance keeps signed-in principals for 60 s here (LUMI_AUTH_CACHE_SECONDS), so a change that reaches the
 * other instance in well under that time was told through the database (LISTEN/NOTIFY), not waited out.
 * The 100 ms target itself is measured by `npm run bench` (BENCH_PARTS=cluster), not asserted here, as a
 * timed assertion would be flaky on a busy machine.
 */
const run = Boolean(process.env.TEST_DATABASE_URL);
const CACHE_SECONDS = 60;
/** Far below the 60 s cache: only a notification between the instances explains a change seen this soon. */
const PROPAGATION_BOUND_MS = 5_000;

const clusterEnv = {
  LUMI_AUTH_CACHE_SECONDS: String(CACHE_SECONDS),
  LUMI_JOB_LEASE_SECONDS: '4',
  LUMI_HOUSEKEEPING_SECONDS: '1',
};

describe.skipIf(!run)('two server processes on one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let db: Kysely<Database>;
  let a: ServerProcess;
  let b: ServerProcess;
  let adminToken: string;

  beforeAll(async () => {
    // An empty database and both instances started together, as a new deployment does: the migrations
    // and the first seeding must take turns by themselves.
    database = await createPostgresDatabase({ empty: true });
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }),
    });
    [a, b] = await Promise.all([
      ServerProcess.start('a', database.url, clusterEnv),
      ServerProcess.start('b', database.url, clusterEnv),
    ]);
    adminToken = await a.login(ADMIN.username, ADMIN.password);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.destroy();
    await database?.drop();
  }, 60_000);

  const me = (server: ServerProcess, token: string) => server.request('GET', '/api/auth/me', { token });

  /** Resolves once `server` counts the allowance's request limits `where` (GET /api/ready). */
  const countsIn = (server: ServerProcess, where: 'memory' | 'database') =>
    eventually(
      async () => {
        const ready = (await (await server.request('GET', '/api/ready')).json()) as {
          allowance_counts: string;
        };
        return ready.allowance_counts === where ? true : undefined;
      },
      10_000,
      `${server.name} to count in ${where}`,
    );

  /** Resolves with the ms from `since` until `server` refuses `token` with 401. */
  const refusedAfter = async (server: ServerProcess, token: string, since: number) =>
    eventually(
      async () => ((await me(server, token)).status === 401 ? performance.now() - since : undefined),
      PROPAGATION_BOUND_MS,
      `${server.name} to refuse the token`,
    );

  async function createUser(server: ServerProcess, username: string): Promise<User> {
    const roles = (await (await server.request('GET', '/api/roles', { token: adminToken })).json()) as {
      id: number;
      name: string;
    }[];
    const res = await server.request('POST', '/api/users', {
      token: adminToken,
      body: {
        username,
        email: `${username}@example.com`,
        name: username,
        password: 'Cluster-user-pass-42',
        roles: [roles.find((role) => role.name === 'viewer')!.id],
      },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as User;
  }

  it('migrated and seeded once although both instances started at the same time on an empty database', async () => {
    const admins = await db.selectFrom('users').select('username').execute();
    expect(admins.map((row) => row.username)).toEqual([ADMIN.username]);
    const roles = await db.selectFrom('roles').select('name').execute();
    expect(roles.map((row) => row.name).sort()).toEqual(['admin', 'operator', 'viewer']);
  });

  it('refuses on B a token signed out on A, long before the cache would expire', async () => {
    const user = await createUser(a, 'signout_user');
    const latencies: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const token = await a.login(user.username, 'Cluster-user-pass-42');
      // B now keeps this principal for 60 s unless told otherwise.
      expect((await me(b, token)).status).toBe(200);
      expect((await me(b, token)).status).toBe(200);
      expect((await a.request('POST', '/api/auth/logout', { token })).status).toBe(200);
      latencies.push(await refusedAfter(b, token, performance.now()));
      expect((await me(a, token)).status).toBe(401);
    }
    latencies.sort((x, y) => x - y);
    console.info(
      `sign-out on A refused on B after: median ${latencies[5]!.toFixed(1)} ms, max ${latencies[9]!.toFixed(1)} ms`,
    );
  });

  it('refuses on B an API key revoked on A, long before the cache would expire', async () => {
    const created = await a.request('POST', '/api/admin/api-keys', {
      token: adminToken,
      body: { name: 'revoked in the cluster', scopes: ['config:read'] },
    });
    expect(created.status).toBe(201);
    const { id, key } = (await created.json()) as ApiKeyCreated;
    const config = (server: ServerProcess) =>
      server.request('GET', '/api/bot/config', { headers: { authorization: `Bearer ${key}` } });
    // B now keeps this key for 60 s unless told otherwise.
    expect((await config(b)).status).toBe(200);
    expect((await config(b)).status).toBe(200);
    expect((await a.request('DELETE', `/api/admin/api-keys/${id}`, { token: adminToken })).status).toBe(200);
    expect((await config(a)).status).toBe(401);
    await eventually(
      async () => ((await config(b)).status === 401 ? true : undefined),
      PROPAGATION_BOUND_MS,
      'B to refuse the key',
    );
  });

  it('refuses on A a user deactivated on B', async () => {
    const user = await createUser(b, 'deactivated_user');
    const token = await a.login(user.username, 'Cluster-user-pass-42');
    expect((await me(a, token)).status).toBe(200);
    const res = await b.request('PUT', `/api/users/${user.id}`, {
      token: adminToken,
      body: {
        email: user.email,
        name: user.name,
        roles: user.roles.map((role) => role.id),
        is_active: false,
      },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await refusedAfter(a, token, performance.now());
  });

  it("shows an ingestion on A on B's dashboard at once", async () => {
    const created = await a.request('POST', '/api/admin/api-keys', {
      token: adminToken,
      body: { name: 'cluster bot', scopes: ['ingest:write'] },
    });
    expect(created.status).toBe(201);
    const key = ((await created.json()) as ApiKeyCreated).key;
    const requests = async () => {
      const res = await b.request('GET', '/api/metrics/llm-usage?days=7', { token: adminToken });
      expect(res.status).toBe(200);
      return ((await res.json()) as LlmUsage).totals.requests;
    };
    // B caches this answer (for 5 s) before the event arrives on A.
    const before = await requests();
    const ingested = await a.request('POST', '/api/ingest/events', {
      headers: { authorization: `Bearer ${key}` },
      body: { events: [events.llmCall(Date.now())] },
    });
    expect(ingested.status).toBe(200);
    expect(((await ingested.json()) as IngestResult).accepted).toBe(1);
    const since = performance.now();
    await eventually(
      async () => ((await requests()) === before + 1 ? true : undefined),
      2_000,
      'B to count it',
    );
    // Well inside the 5 s the answer was cached for.
    expect(performance.now() - since).toBeLessThan(2_000);
  });

  it('locks an account after 5 failed sign-ins spread over both instances', async () => {
    const user = await createUser(a, 'throttled_user');
    const attempt = (server: ServerProcess, password: string) =>
      server.request('POST', '/api/auth/login', { body: { username: user.username, password } });
    for (const server of [a, b, a, b, a]) expect((await attempt(server, 'wrong-password')).status).toBe(401);
    expect((await attempt(b, 'Cluster-user-pass-42')).status).toBe(429);
    expect((await attempt(a, 'Cluster-user-pass-42')).status).toBe(429);
  });

  it('admits exactly as many of 50 checks spread over both as a request limit has left', async () => {
    const created = await a.request('POST', '/api/admin/api-keys', {
      token: adminToken,
      body: { name: 'allowance in the cluster', scopes: ['allowance:read'] },
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as ApiKeyCreated;
    const limit = await a.request('POST', '/api/limits', {
      token: adminToken,
      body: { scope: 'user', subject: '4242', metric: 'requests', window: 'hour', amount: 10, mode: 'hard' },
    });
    expect(limit.status).toBe(201);
    // Both count in the database once each has seen the other (GET /api/ready).
    for (const server of [a, b]) await countsIn(server, 'database');
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await (i % 2 ? a : b).request('POST', '/api/bot/allowance', {
          headers: { authorization: `Bearer ${key}` },
          body: { user_id: '4242' },
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { allowed: boolean }).allowed;
      }),
    );
    expect(answers.filter(Boolean)).toHaveLength(10);
  });

  it('runs each job on one instance only, and moves it when that instance stops', async () => {
    const holder = async () =>
      (
        await db
          .selectFrom('job_leases')
          .select('holder')
          .where('name', '=', 'housekeeping')
          .executeTakeFirst()
      )?.holder ?? undefined;
    const leaderId = await eventually(holder, 10_000, 'a housekeeping lease');
    const [leader, follower] = leaderId === a.instanceId() ? [a, b] : [b, a];
    expect(leaderId).toBe(leader.instanceId());
    await eventually(() => (leader.runsOf('housekeeping') >= 3 ? true : undefined), 15_000, 'three runs');
    expect(follower.runsOf('housekeeping')).toBe(0);
    expect(follower.runsOf('retention') + leader.runsOf('retention')).toBe(1);

    // A graceful stop: not ready at once, then the lease is released and the follower takes over.
    const stopped = leader.stop('SIGTERM');
    await eventually(
      async () => {
        try {
          const ready = await leader.request('GET', '/api/ready');
          return ready.status === 503 ? true : undefined;
        } catch {
          return true; // Already closed: a load balancer sees it as down just the same.
        }
      },
      5_000,
      'the stopping instance to answer 503 on /api/ready',
    );
    expect(await stopped).toBe(0);
    expect(await holder()).not.toBe(leader.instanceId());
    await eventually(() => (follower.runsOf('housekeeping') >= 2 ? true : undefined), 10_000, 'a takeover');
    expect(await holder()).toBe(follower.instanceId());
  });

  it('takes over the jobs of an instance killed with -9 once its lease expires', async () => {
    // The previous test stopped one instance; start a fresh one that will lead, then kill it.
    const survivor = a.running ? a : b;
    await survivor.stop('SIGTERM');
    const doomed = await ServerProcess.start('doomed', database.url, clusterEnv);
    await eventually(() => (doomed.runsOf('housekeeping') >= 1 ? true : undefined), 15_000, 'the new leader');
    const heir = await ServerProcess.start('heir', database.url, clusterEnv);
    try {
      await doomed.stop('SIGKILL');
      await eventually(
        () => (heir.runsOf('housekeeping') >= 1 ? true : undefined),
        15_000,
        'the heir to run',
      );
      const lease = await db
        .selectFrom('job_leases')
        .selectAll()
        .where('name', '=', 'housekeeping')
        .executeTakeFirstOrThrow();
      expect(lease.holder).toBe(heir.instanceId());
      expect(lease.last_run_by).toBe(heir.instanceId());
      // The killed instance's session ended with it, and so did its locks: the heir counts alone.
      await countsIn(heir, 'memory');
    } finally {
      await heir.stop();
    }
  });
});
