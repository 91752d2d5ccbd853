import type { ApiKeyCreated, Delivery, Variable } from '@lumi/contract';
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERTS, createRule, createWebhookPoint } from './alerts-helper.js';
import {
  LEAK,
  readOperations,
  renewKey,
  seedRecords,
  startHarness,
  type Harness,
  type Operation,
} from './fuzz/harness.js';
import { validish } from './fuzz/schema-arbitrary.js';
import { dialects } from './helper.js';
import { createChannel, createTopic, MESSAGING } from './messaging-helper.js';

/**
 * The fuzz suite's concurrency mode (engineering guide 18): every create, update and delete of the OpenAPI
 * document, so a new route is covered without being listed here, gets the same request COPIES times at
 * once; on PostgreSQL they are shared between two instances of the app on one database. The request is
 * the first of a few seeded samples of the route's own schema that the server accepts, with the ids of
 * seeded records and the record's current version put in, so most routes reach their write.
 *
 * Each batch: no 5xx and no error that shows internals; a delete removes once and is audited once; a batch
 * that changed nothing wrote no audit entry; no success wrote more than one entry; and, as SQLite runs the
 * copies one after another, PostgreSQL, which runs them side by side, lets no more of them through.
 */
const COPIES = 6;
const SAMPLES = 6;
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);

/** Writes whose copies would end the harness's own session or credentials rather than race on data. */
const SKIPPED = new Set(['POST /api/auth/logout', 'POST /api/auth/sessions/revoke-others']);

/** Audit actions a refused request writes on purpose (sign-in bookkeeping, refused sends). */
const REFUSAL_AUDIT = /^auth\.|\.refused$/;

const { operations, components } = await readOperations();
const writes = operations.filter(
  (op) => op.method !== 'GET' && op.method !== 'HEAD' && !SKIPPED.has(`${op.method} ${op.path}`),
);

/** Ids of one record of each kind, by the path segment that names the kind. */
type Records = Record<string, string>;

async function seedWrites(h: Harness): Promise<Records> {
  await seedRecords(h);
  const { t, admin } = h;
  const created = async <T>(url: string, payload: object) => {
    const res = await t.app.inject({ method: 'POST', url, headers: admin.auth, payload });
    expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
    return res.json<T>();
  };
  const [channel, template, item, role, user] = h.known.id!;
  const point = await createWebhookPoint(t, admin, 'http://127.0.0.1:9/hook');
  const rule = await createRule(t, admin, { contact_point_ids: [point.id] });
  const silence = await created<{ id: number }>(`${ALERTS}/silences`, {
    kind: 'once',
    comment: 'Deploying',
    ends_at: new Date(Date.now() + 3_600_000).toISOString(),
  });
  const schedule = await created<{ id: number }>(`${MESSAGING}/schedules`, {
    name: `Report ${Math.random()}`,
    template_id: Number(template),
    recurrence: { kind: 'daily', time: '09:00' },
    timezone: 'UTC',
    data: {},
  });
  const delivery = await created<Delivery>(`${MESSAGING}/deliveries`, {
    template_id: Number(template),
    data: {},
  });
  const key = await created<ApiKeyCreated>('/api/admin/api-keys', {
    name: `k ${Math.random()}`,
    scopes: ['ingest:write'],
  });
  const variables = await t.app.inject({ method: 'GET', url: `${MESSAGING}/variables`, headers: admin.auth });
  // What a delete may remove: a channel with a topic and a contact point that nothing uses.
  const spare = await createChannel(t, admin);
  const spareTopic = await createTopic(t, admin, spare.id);
  const sparePoint = await createWebhookPoint(t, admin, 'http://127.0.0.1:9/spare');
  return {
    channels: channel!,
    templates: template!,
    config: item!,
    roles: role!,
    users: user!,
    rules: String(rule.id),
    'contact-points': String(point.id),
    silences: String(silence.id),
    schedules: String(schedule.id),
    deliveries: String(delivery.id),
    'api-keys': String(key.id),
    variables: String(variables.json<Variable[]>()[0]!.id),
    topic: h.known.topic_id![0]!,
    serial: String(Math.floor(Math.random() * 1e9)),
    'spare channels': String(spare.id),
    'spare topic': String(spareTopic.id),
    'spare contact-points': String(sparePoint.id),
  };
}

/** The path with each parameter naming a seeded record of the kind the path is about. */
function pathFor(op: Operation, h: Harness, records: Records): string {
  const spare = op.method === 'DELETE' ? 'spare ' : '';
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (name === 'topic_id') return records[`${spare}topic`] ?? records.topic!;
    // A budget is created for a provider that has none.
    if (name === 'provider' && op.method === 'POST') return `fresh-${records.serial}`;
    if (name !== 'id') return h.known[name]?.[0] ?? '1';
    const kind = Object.keys(records).find((k) => op.path.includes(`/${k}/`));
    return kind ? (records[`${spare}${kind}`] ?? records[kind]!) : '1';
  });
}

/** A sample body with the seeded records' ids and, for an update, the version the record has now. */
function patched(body: unknown, records: Records, version: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const ids: Record<string, unknown> = {
    channel_id: Number(records.channels),
    topic_id: null,
    template_id: Number(records.templates),
    rule_id: Number(records.rules),
    contact_point_ids: [Number(records['contact-points'])],
  };
  const values: Record<string, unknown> = {
    ...ids,
    timezone: 'UTC',
    email: `fuzz-${records.serial}@example.com`,
    roles: [Number(records.roles)],
  };
  const out: Record<string, unknown> = { ...body };
  for (const key of Object.keys(out)) if (key in values) out[key] = values[key];
  if ('version' in out && typeof version === 'number') out.version = version;
  return out;
}

interface Outcome {
  statuses: number[];
  audits: number;
}

/** What each dialect answered, by operation, for the comparison at the end. */
const outcomes = new Map<string, Map<string, Outcome>>();

describe.each(dialects)('identical writes at once, every operation, on %s', (dialect) => {
  let h: Awaited<ReturnType<typeof startHarness>>;
  let instances: FastifyInstance[];
  const answered = new Map<string, Outcome>();
  outcomes.set(dialect, answered);

  beforeAll(async () => {
    h = await startHarness(dialect);
    instances = dialect === 'postgres' ? [h.t.app, await h.t.secondInstance()] : [h.t.app];
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    const never = [...answered].filter(([, o]) => !o.statuses.some((s) => s < 300)).map(([op]) => op);
    process.stdout.write(`concurrency fuzz on ${dialect}: never accepted: ${never.join(', ') || 'none'}\n`);
  });

  const auditCount = async () =>
    (await h.t.app.db.selectFrom('audit_logs').select('action').execute()).filter(
      (row) => !REFUSAL_AUDIT.test(row.action),
    ).length;

  it.each(writes.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s',
    async (name, op) => {
      const records = await seedWrites(h);
      const url = pathFor(op, h, records);
      const auth =
        op.permission === 'public'
          ? {}
          : { authorization: op.permission === 'api-key' ? `Bearer ${h.key}` : h.admin.auth.authorization };
      const current =
        op.method === 'PUT' || op.method === 'DELETE'
          ? await h.t.app.inject({ method: 'GET', url, headers: auth })
          : null;
      const version = current?.statusCode === 200 ? current.json<{ version?: unknown }>().version : undefined;
      const target =
        op.method === 'DELETE' &&
        typeof version === 'number' &&
        op.parameters.some((p) => p.name === 'version')
          ? `${url}?version=${version}`
          : url;
      const samples = fc.sample(validish(op.body ?? { type: 'object' }, components), {
        seed: SEED,
        numRuns: SAMPLES,
      });

      let outcome: Outcome = { statuses: [], audits: 0 };
      for (const sample of samples) {
        const payload = op.body ? JSON.stringify(patched(sample, records, version)) : undefined;
        const before = await auditCount();
        const results: LightMyRequestResponse[] = await Promise.all(
          Array.from({ length: COPIES }, (_, i) =>
            instances[i % instances.length]!.inject({
              method: op.method as 'POST',
              url: target,
              headers: { ...auth, ...(payload !== undefined && { 'content-type': 'application/json' }) },
              ...(payload !== undefined && { payload }),
            }),
          ),
        );
        const statuses = results.map((r) => r.statusCode).sort();
        const what = `${name} ${payload?.slice(0, 300) ?? ''}\n${results.map((r) => `${r.statusCode} ${r.body.slice(0, 300)}`).join('\n')}`;
        expect(
          statuses.filter((s) => s >= 500),
          what,
        ).toEqual([]);
        for (const res of results.filter((r) => r.statusCode >= 400)) {
          expect(LEAK.exec(res.body)?.[0] ?? null, what).toBeNull();
        }
        const successes = statuses.filter((s) => s < 300).length;
        const audits = (await auditCount()) - before;
        if (op.method === 'DELETE') {
          // A delete removes once (a key's revocation answers the revoked key again, and is audited once).
          expect(statuses.filter((s) => s === 204).length, what).toBeLessThanOrEqual(1);
          expect(audits, what).toBeLessThanOrEqual(1);
        }
        expect(audits, what).toBeLessThanOrEqual(successes);
        outcome = { statuses, audits };
        if (successes > 0) break;
      }
      answered.set(name, outcome);
      if (op.permission === 'api-key') {
        // A copy may have used up what the key may do; the next operation gets a fresh one.
        await renewKey(h);
      }
    },
    120_000,
  );
});

describe('both databases', () => {
  // Side by side, identical writes never get further than one after another: no more successes, no more
  // audit entries (PostgreSQL may answer a lost race with 409 where SQLite's turn found nothing to refuse).
  it.runIf(dialects.length === 2)('let no more identical writes through at once than one by one', () => {
    const sqlite = outcomes.get('sqlite')!;
    const successes = (o: Outcome | undefined) => o?.statuses.filter((s) => s < 300).length ?? 0;
    const further = [...outcomes.get('postgres')!]
      .filter(
        ([op, o]) => successes(o) > successes(sqlite.get(op)) || o.audits > (sqlite.get(op)?.audits ?? 0),
      )
      .map(([op, o]) => `${op}: PostgreSQL ${JSON.stringify(o)}, SQLite ${JSON.stringify(sqlite.get(op))}`);
    expect(further).toEqual([]);
  });
});
