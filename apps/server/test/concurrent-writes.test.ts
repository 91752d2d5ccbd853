import type { AuditListResponse, Channel } from '@lumi/contract';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSTRAINTS } from '../src/db/constraints.js';
import { ALERTS, createRule, createWebhookPoint } from './alerts-helper.js';
import { createTestApp, dialects, expectError, type Session, type TestApp } from './helper.js';
import { MESSAGING, createChannel, createTemplate, createTopic } from './messaging-helper.js';

/**
 * Identical writes sent at once (engineering guide 18): SQLite runs them one after another, PostgreSQL side
 * by side, and both answer alike. A create whose name another request takes meanwhile is a 409 saying what
 * is taken, and of deletes of one thing, one succeeds, the rest are 404 and the audit log has one entry.
 */

const CREATES = 20;
const DELETES = 10;
/** What the database says in its own words, which a detail never repeats. */
const INTERNALS = /constraint|violates|duplicate key|_uq\b|_key\b|_pkey|_fkey|SQLITE|INSERT|DELETE/;

describe.each(dialects)('identical writes at once on %s', (dialect) => {
  // One app for the file: each test works on things of its own.
  let t: TestApp;
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      configure: (app) => {
        // Writes with no service check before them, as a write that lost a race meets the database.
        const open = { config: { permission: 'public' } } as const;
        app.post<{ Params: { table: string } }>('/api/test/rows/:table', open, async (request) => {
          await app.db
            .insertInto(request.params.table as 'roles')
            .values(request.body as never)
            .execute();
          return { ok: true };
        });
        app.delete<{ Params: { id: string } }>('/api/test/roles/:id', open, async (request) => {
          await app.db.deleteFrom('roles').where('id', '=', Number(request.params.id)).execute();
          return { ok: true };
        });
      },
    });
    admin = await t.loginAdmin();
  });
  afterAll(() => t?.close());

  const send = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: admin.auth, payload });
  const times = (n: number, request: () => Promise<LightMyRequestResponse>) =>
    Promise.all(Array.from({ length: n }, request));
  const summary = (results: LightMyRequestResponse[]) =>
    results.map((res) => `${res.statusCode} ${res.body}`).join('\n');

  /** No 5xx and one `success`; every other answer is a 409 whose detail says what is taken. */
  function expectOneWinner(results: LightMyRequestResponse[], success: number, taken: RegExp) {
    const statuses = results.map((res) => res.statusCode);
    expect(
      statuses.filter((status) => status >= 500),
      summary(results),
    ).toEqual([]);
    expect(
      statuses.filter((status) => status === success),
      summary(results),
    ).toHaveLength(1);
    for (const res of results.filter((r) => r.statusCode !== success)) {
      const { detail } = expectError(res, 409, 'conflict');
      expect(detail).toMatch(taken);
      expect(detail).not.toMatch(INTERNALS);
    }
  }

  const createsAtOnce = (url: string, payload: object) => times(CREATES, () => send('POST', url, payload));

  describe('creates of one name', () => {
    it('roles', async () => {
      const payload = { name: 'race-role', permissions: ['users:read'] };
      expectOneWinner(
        await createsAtOnce('/api/roles', payload),
        201,
        /A role named 'race-role' already exists/,
      );
    });

    it('token budgets', async () => {
      expectOneWinner(
        await createsAtOnce('/api/config/token-budgets/race-provider', { daily_token_limit: 1000 }),
        201,
        /There is a budget for 'race-provider' already/,
      );
    });

    it('template variables', async () => {
      expectOneWinner(
        await createsAtOnce(`${MESSAGING}/variables`, {
          variable_name: 'race_variable',
          data_type: 'number',
        }),
        201,
        /variable named 'race_variable'/,
      );
    });

    it('configuration items', async () => {
      expectOneWinner(
        await createsAtOnce('/api/admin/api/config/quirks', { name: 'Race item', content: 'x' }),
        201,
        /A quirks item named 'Race item' already exists/,
      );
    });

    it('configuration imports: one creates the item, the others update it or answer 409', async () => {
      const payload = { items: [{ name: 'Imported race', content: 'x' }] };
      const results = await createsAtOnce('/api/admin/api/config/quirks/import', payload);
      expect(
        results.map((res) => res.statusCode).filter((status) => status >= 500),
        summary(results),
      ).toEqual([]);
      const applied = results.filter((res) => res.statusCode === 200).map((res) => res.json());
      expect(applied.filter((body) => body.created === 1)).toHaveLength(1);
      expect(applied.filter((body) => body.created !== 1)).toEqual(
        Array(applied.length - 1).fill({ created: 0, updated: 0 }),
      );
      for (const res of results.filter((r) => r.statusCode !== 200)) {
        expect(expectError(res, 409, 'conflict').detail).toMatch(
          /A quirks item with that name was created by another request meanwhile/,
        );
      }
    });

    it('channels', async () => {
      expectOneWinner(
        await createsAtOnce(`${MESSAGING}/channels`, { channel_name: 'Race channel', chat_id: '-1001' }),
        201,
        /A channel named 'Race channel' already exists/,
      );
    });

    it('topics', async () => {
      const channel = await createChannel(t, admin);
      expectOneWinner(
        await createsAtOnce(`${MESSAGING}/channels/${channel.id}/topics`, {
          topic_name: 'Race topic',
          message_thread_id: 7,
        }),
        201,
        /topic named 'Race topic'|already has message thread 7/,
      );
    });

    it('templates', async () => {
      const channel = await createChannel(t, admin);
      expectOneWinner(
        await createsAtOnce(`${MESSAGING}/templates`, {
          template_name: 'Race template',
          template_content: 'Hello',
          channel_id: channel.id,
        }),
        201,
        /A message template named 'Race template' already exists/,
      );
    });
  });

  describe('deletes of one thing', () => {
    /** One `success`, the rest 404, and one `action` entry in the audit log for `id`. */
    async function expectOneDelete(url: string, success: number, action: string, id: number | string) {
      const results = await times(DELETES, () => send('DELETE', url));
      expect(results.map((res) => res.statusCode).sort(), summary(results)).toEqual([
        success,
        ...Array<number>(DELETES - 1).fill(404),
      ]);
      for (const res of results.filter((r) => r.statusCode === 404)) expectError(res, 404, 'not_found');
      const audit = await t.app.inject({
        method: 'GET',
        url: `/api/admin/audit-logs?action=${action}&limit=100`,
        headers: admin.auth,
      });
      const entries = audit.json<AuditListResponse>().logs.filter((log) => log.resource_id === String(id));
      expect(entries).toHaveLength(1);
    }

    it('alert rules', async () => {
      const hook = await createWebhookPoint(t, admin, 'https://hooks.example.test/race');
      const rule = await createRule(t, admin, { contact_point_ids: [hook.id] });
      await expectOneDelete(`${ALERTS}/rules/${rule.id}`, 204, 'alert_rule.deleted', rule.id);
    });

    it('contact points', async () => {
      const hook = await createWebhookPoint(t, admin, 'https://hooks.example.test/race');
      await expectOneDelete(
        `${ALERTS}/contact-points/${hook.id}`,
        204,
        'alert_contact_point.deleted',
        hook.id,
      );
    });

    it('silences', async () => {
      const res = await send('POST', `${ALERTS}/silences`, {
        kind: 'once',
        rule_id: null,
        comment: 'Race',
        ends_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json<{ id: number }>();
      await expectOneDelete(`${ALERTS}/silences/${id}`, 204, 'alert_silence.deleted', id);
    });

    it('configuration items', async () => {
      const res = await send('POST', '/api/admin/api/config/quirks', {
        name: 'Deleted at once',
        content: 'x',
      });
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json<{ id: number }>();
      await expectOneDelete(`/api/admin/api/config/quirks/${id}?version=1`, 200, 'config.deleted', id);
    });

    it('templates', async () => {
      const channel = await createChannel(t, admin);
      const template = await createTemplate(t, admin, { channel_id: channel.id });
      await expectOneDelete(
        `${MESSAGING}/templates/${template.id}?version=1`,
        200,
        'template.deleted',
        template.id,
      );
    });

    it('roles', async () => {
      const res = await send('POST', '/api/roles', { name: 'deleted-at-once', permissions: ['users:read'] });
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json<{ id: number }>();
      await expectOneDelete(`/api/roles/${id}`, 200, 'role.deleted', id);
    });

    it('token budgets', async () => {
      const url = '/api/config/token-budgets/deleted-at-once';
      expect((await send('POST', url, { daily_token_limit: 10 })).statusCode).toBe(201);
      await expectOneDelete(url, 200, 'token_budget.deleted', 'deleted-at-once');
    });

    it('template variables', async () => {
      const res = await send('POST', `${MESSAGING}/variables`, {
        variable_name: 'deleted_at_once',
        data_type: 'string',
      });
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json<{ id: number }>();
      await expectOneDelete(`${MESSAGING}/variables/${id}`, 200, 'variable.deleted', id);
    });

    it('channels and topics', async () => {
      const channel = await createChannel(t, admin);
      const topic = await createTopic(t, admin, channel.id);
      await expectOneDelete(
        `${MESSAGING}/channels/${channel.id}/topics/${topic.id}`,
        200,
        'topic.deleted',
        topic.id,
      );
      await expectOneDelete(`${MESSAGING}/channels/${channel.id}`, 200, 'channel.deleted', channel.id);
    });

    it('users', async () => {
      const res = await send('POST', '/api/users', {
        username: 'deleted-at-once',
        email: 'deleted-at-once@example.test',
        name: 'Deleted at once',
        password: 'Long-enough-pass-1',
        roles: [t.roleIds.viewer],
      });
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json<{ id: number }>();
      await expectOneDelete(`/api/users/${id}`, 200, 'user.deleted', id);
    });

    it('API keys: every revoke answers the revoked key, and one revocation is audited', async () => {
      const res = await send('POST', '/api/admin/api-keys', {
        name: 'revoked at once',
        scopes: ['ingest:write'],
      });
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json<{ id: number }>();
      const results = await times(DELETES, () => send('DELETE', `/api/admin/api-keys/${id}`));
      expect(results.map((r) => r.statusCode)).toEqual(Array<number>(DELETES).fill(200));
      expect(new Set(results.map((r) => r.json<{ revoked_at: string }>().revoked_at)).size).toBe(1);
      const audit = await t.app.inject({
        method: 'GET',
        url: '/api/admin/audit-logs?action=api_key.revoked&limit=100',
        headers: admin.auth,
      });
      expect(
        audit.json<AuditListResponse>().logs.filter((log) => log.resource_id === String(id)),
      ).toHaveLength(1);
    });
  });

  describe('edits of one thing at once', () => {
    const EDITS = 10;
    const put = (url: string, payload: object) =>
      t.app.inject({ method: 'PUT', url, headers: admin.auth, payload });

    /** The `action` entries of `id`, oldest first: each starts from what the one before it left. */
    async function expectChained(action: string, id: number, field: string, first: unknown) {
      const audit = await t.app.inject({
        method: 'GET',
        url: `/api/admin/audit-logs?action=${action}&limit=100`,
        headers: admin.auth,
      });
      const entries = audit
        .json<AuditListResponse>()
        .logs.filter((log) => log.resource_id === String(id))
        .reverse();
      expect(entries).toHaveLength(EDITS);
      const value = (side: unknown) => (side as Record<string, unknown>)[field];
      const chain = entries.map((log) => `${String(value(log.old_value))}->${String(value(log.new_value))}`);
      let before = first;
      for (const log of entries) {
        expect(value(log.old_value), chain.join(' ')).toEqual(before);
        before = value(log.new_value);
      }
    }

    it('limits: every audited edit starts from the one before it', async () => {
      const base = { scope: 'chat', subject: '-100777', metric: 'tokens', window: 'day', mode: 'hard' };
      const created = await send('POST', '/api/limits', { ...base, amount: 1 });
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json<{ id: number }>();
      const results = await Promise.all(
        Array.from({ length: EDITS }, (_, i) => put(`/api/limits/${id}`, { ...base, amount: i + 2 })),
      );
      expect(
        results.map((res) => res.statusCode),
        summary(results),
      ).toEqual(Array(EDITS).fill(200));
      await expectChained('limit.updated', id, 'amount', 1);
    });

    it('roles: every audited edit starts from the one before it', async () => {
      const role = { name: 'edited-at-once', permissions: ['users:read'] };
      const created = await send('POST', '/api/roles', { ...role, description: 'v0' });
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json<{ id: number }>();
      const results = await Promise.all(
        Array.from({ length: EDITS }, (_, i) =>
          put(`/api/roles/${id}`, { ...role, description: `v${i + 1}` }),
        ),
      );
      expect(
        results.map((res) => res.statusCode),
        summary(results),
      ).toEqual(Array(EDITS).fill(200));
      await expectChained('role.updated', id, 'description', 'v0');
    });

    it("limits moved onto each other's subjects at once: each is a 409, never a 5xx", async () => {
      const limit = (subject: string) => ({
        scope: 'user',
        subject,
        metric: 'tokens',
        window: 'day',
        mode: 'hard',
        amount: 5,
      });
      const pairs = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const [a, b] = await Promise.all([
            send('POST', '/api/limits', limit(`7000${i}`)),
            send('POST', '/api/limits', limit(`8000${i}`)),
          ]);
          return { i, a: a!.json<{ id: number }>().id, b: b!.json<{ id: number }>().id };
        }),
      );
      // PostgreSQL deadlocked on a few swaps in a thousand before edits took turns: many rounds.
      for (let round = 0; round < 5; round += 1) {
        const results = await Promise.all(
          pairs.flatMap(({ i, a, b }) => [
            put(`/api/limits/${a}`, limit(`8000${i}`)),
            put(`/api/limits/${b}`, limit(`7000${i}`)),
          ]),
        );
        for (const res of results) {
          expect(expectError(res, 409, 'conflict').detail, summary(results)).not.toMatch(INTERNALS);
        }
      }
    });
  });

  it("answers the database's own refusals with a 409 in words, never with its constraints' names", async () => {
    const insert = (table: string, row: object) =>
      t.app.inject({ method: 'POST', url: `/api/test/rows/${table}`, payload: row });
    const twice = async (table: string, row: object) => {
      const first = await insert(table, row);
      expect(first.statusCode, first.body).toBe(200);
      return insert(table, row);
    };
    const at = new Date().toISOString();
    const refusals: Array<[LightMyRequestResponse, string | RegExp]> = [
      [
        await insert('roles', {
          name: 'admin',
          permissions: '[]',
          built_in: 0,
          created_at: at,
          updated_at: at,
        }),
        "A role named 'admin' already exists",
      ],
      [
        await twice('config_items', {
          domain: 'quirks',
          name: 'Taken',
          name_key: 'taken',
          content_type: 'text',
          content: 'x',
          created_at: at,
          updated_at: at,
        }),
        "A quirks item named 'Taken' already exists",
      ],
      [
        await insert('user_roles', { user_id: t.adminId, role_id: 999_999 }),
        // SQLite does not say which foreign key; PostgreSQL does.
        dialect === 'postgres'
          ? 'One of the roles was deleted meanwhile; reload the roles and choose again'
          : 'Something it refers to was deleted meanwhile. Reload and try again.',
      ],
      [
        await t.app.inject({ method: 'DELETE', url: `/api/test/roles/${t.roleIds.admin}` }),
        dialect === 'postgres'
          ? 'The role was given to a user meanwhile; remove it from them first'
          : 'Something was made to refer to it meanwhile. Reload to see what, then try again.',
      ],
      // A key no request races on, which db/constraints.ts does not describe: a general answer.
      [
        await twice('model_prices', {
          model: 'taken',
          input_usd_per_million: 1,
          output_usd_per_million: 1,
          updated_at: at,
        }),
        /^That is taken: another request made the same change meanwhile/,
      ],
    ];
    for (const [res, expected] of refusals) {
      const { detail } = expectError(res, 409, 'conflict');
      expect(detail).toMatch(expected);
      expect(detail).not.toMatch(INTERNALS);
    }
  });

  it('describes keys the schema has, by the names and columns the database gives in its errors', async () => {
    const db = t.app.db;
    for (const [name, entry] of Object.entries(CONSTRAINTS)) {
      if (dialect === 'postgres') {
        // A unique constraint's index has its name; a partial unique key is an index alone.
        const { rows } = await sql<{ table: string; columns: string[]; foreign: boolean }>`
          select t.relname as table,
            array(select a.attname::text from unnest(x.indkey::int2[]) with ordinality k(attnum, n)
              join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum order by k.n) as columns,
            false as foreign
          from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
          where x.indisunique and i.relname = ${name}
          union all
          select t.relname, array[]::text[], true
          from pg_constraint c join pg_class t on t.oid = c.conrelid
          where c.contype = 'f' and c.conname = ${name}`.execute(db);
        expect(rows, name).toEqual([
          entry.kind === 'unique'
            ? { table: entry.table, columns: entry.columns, foreign: false }
            : { table: expect.any(String), columns: [], foreign: true },
        ]);
      } else if (entry.kind === 'unique') {
        // SQLite names a unique key by its columns only.
        const { rows } = await sql<{ index: string; column: string }>`
          select il.name as "index", ii.name as "column"
          from pragma_index_list(${entry.table}) il, pragma_index_info(il.name) ii
          where il."unique" = 1 order by il.name, ii.seqno`.execute(db);
        const keys = new Map<string, string[]>();
        for (const row of rows) keys.set(row.index, [...(keys.get(row.index) ?? []), row.column]);
        expect([...keys.values()], name).toContainEqual(entry.columns);
      }
    }
  });

  it('deletes a channel while templates are created on it: either wins, and nothing answers 5xx', async () => {
    for (let round = 0; round < 3; round += 1) {
      const channel: Channel = await createChannel(t, admin);
      const [removed, ...made] = await Promise.all([
        send('DELETE', `${MESSAGING}/channels/${channel.id}`),
        ...Array.from({ length: 5 }, (_, i) =>
          send('POST', `${MESSAGING}/templates`, {
            template_name: `Raced ${round}.${i}`,
            template_content: 'Hello',
            channel_id: channel.id,
          }),
        ),
      ]);
      const all = [removed!, ...made];
      expect(
        all.map((res) => res.statusCode).filter((status) => status >= 500),
        summary(all),
      ).toEqual([]);
      const createdCount = made.filter((res) => res.statusCode === 201).length;
      if (removed!.statusCode === 200) {
        // The channel went first: no template points to it.
        expect(createdCount, summary(all)).toBe(0);
      } else {
        expect(expectError(removed!, 409, 'conflict').detail).toMatch(/template/);
        expect(createdCount, summary(all)).toBeGreaterThan(0);
      }
      for (const res of made.filter((r) => r.statusCode !== 201)) {
        expect([409, 422], res.body).toContain(res.statusCode);
        expect(expectError(res, res.statusCode).detail).toMatch(/channel/i);
      }
    }
  });
});
