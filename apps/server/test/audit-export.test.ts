import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuditListResponse, AuditLog } from '@lumi/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { NewAuditLog } from '../src/db/database.js';
import { readCsv } from './csv-reader.js';
import { dialects, expectError, useTestApp, type Session } from './helper.js';

/** Audit export (docs/operators/metrics.md, "CSV exports"; docs/api.md). */

const CSV_HEADER = [
  'id',
  'timestamp',
  'user',
  'action',
  'resource_type',
  'resource_id',
  'resource_name',
  'resource_current_name',
  'ip_address',
  'user_agent',
  'old_value',
  'new_value',
];
const BOM = '\uFEFF';
const FILE_NAME = (extension: string) =>
  new RegExp(`^attachment; filename="lumi-audit-\\d{8}T\\d{6}Z\\.${extension}"$`);

/** A CSV file's records without its byte order mark and header, which every file starts with. */
function csvRows(body: string): string[][] {
  expect(body.startsWith(BOM)).toBe(true);
  const [header, ...rows] = readCsv(body.slice(BOM.length));
  expect(header).toEqual(CSV_HEADER);
  return rows;
}

function jsonLines(body: string): AuditLog[] {
  expect(body === '' || body.endsWith('\n')).toBe(true);
  return body
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as AuditLog);
}

/** An entry as a CSV row shows it when no cell needs a formula guard. */
const asCsvRow = (entry: AuditLog) =>
  CSV_HEADER.map((column) => {
    const value = entry[column as keyof AuditLog];
    if (value === null) return '';
    return column === 'old_value' || column === 'new_value' ? JSON.stringify(value) : String(value);
  });

describe.each(dialects)('audit export on %s', (dialect) => {
  const t = useTestApp(dialect);

  const exportLogs = (session: Session, query: string) =>
    t.app.inject({ method: 'GET', url: `/api/admin/audit-logs/export?${query}`, headers: session.auth });
  const list = async (session: Session, query = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/audit-logs?limit=200${query}`,
      headers: session.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AuditListResponse>().logs;
  };
  const record = (username: string | null, action: string, fields: Partial<NewAuditLog> = {}) =>
    t.app.db
      .insertInto('audit_logs')
      .values({
        created_at: new Date().toISOString(),
        actor_id: null,
        actor_username: username,
        action,
        resource_type: 'config_item',
        resource_id: null,
        resource_name: null,
        old_value: null,
        new_value: null,
        ip_address: '192.0.2.7',
        user_agent: 'export-test/1.0',
        ...fields,
      })
      .execute();

  it('answers CSV with a header and the entries the list shows, newest first, as an attachment', async () => {
    const admin = await t.loginAdmin();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/api/config/moods',
      headers: admin.auth,
      payload: { name: 'Sunny', content: 'Bright' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const before = await list(admin);

    const res = await exportLogs(admin, 'format=csv');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(FILE_NAME('csv'));
    expect(res.headers['cache-control']).toBe('no-store');
    const rows = csvRows(res.body);
    // The export's own entry comes first: it was written before the log was read.
    expect(rows[0]!.slice(2, 5)).toEqual(['admin', 'audit.exported', 'audit_log']);
    expect(JSON.parse(rows[0]![11]!)).toEqual({ format: 'csv', filters: {} });
    expect(rows.slice(1)).toEqual(before.map(asCsvRow));
    expect(before.map((e) => e.action)).toEqual(expect.arrayContaining(['config.created', 'auth.login']));
  });

  it('answers JSON Lines, one entry of the list answer per line, and CSV without a format', async () => {
    const admin = await t.loginAdmin();
    const res = await exportLogs(admin, 'format=jsonl');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    expect(res.headers['content-disposition']).toMatch(FILE_NAME('jsonl'));
    const exported = jsonLines(res.body);
    expect(exported).toEqual(await list(admin));
    expect(exported[0]).toMatchObject({ action: 'audit.exported', new_value: { format: 'jsonl' } });

    const byDefault = await exportLogs(admin, '');
    expect(byDefault.headers['content-type']).toBe('text/csv; charset=utf-8');
  });

  it('quotes commas, quotes and line breaks, keeps Unicode and guards cells against formulas', async () => {
    const admin = await t.loginAdmin();
    await record('=cmd|calc', 'config.updated', {
      resource_id: '-100123',
      resource_name: 'Line one\nline "two", three',
      new_value: JSON.stringify({ note: '@SUM(A1)', emoji: 'Grüße 🎉 日本語' }),
      user_agent: '+1-2, "agent"\r\nnext',
      ip_address: '-2+3',
      resource_type: '\t=1',
    });

    const res = await exportLogs(admin, 'format=csv&action=config.updated');
    expect(res.statusCode, res.body).toBe(200);
    const [row, ...others] = csvRows(res.body);
    expect(others).toEqual([]);
    expect(row).toEqual([
      expect.stringMatching(/^\d+$/),
      expect.any(String),
      "'=cmd|calc",
      'config.updated',
      "'\t=1",
      // A plain number is no formula: a Telegram group's id stays as it is.
      '-100123',
      'Line one\nline "two", three',
      '',
      "'-2+3",
      '\'+1-2, "agent"\r\nnext',
      '',
      '{"note":"@SUM(A1)","emoji":"Grüße 🎉 日本語"}',
    ]);
    // The raw text: quoted and doubled as RFC 4180 says.
    expect(res.body).toContain('"Line one\nline ""two"", three"');
    expect(res.body).toContain('"\'+1-2, ""agent""\r\nnext"');

    const lines = jsonLines((await exportLogs(admin, 'format=jsonl&action=config.updated')).body);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      user: '=cmd|calc',
      resource_name: 'Line one\nline "two", three',
      user_agent: '+1-2, "agent"\r\nnext',
      new_value: { note: '@SUM(A1)', emoji: 'Grüße 🎉 日本語' },
    });
  });

  it('applies the filters the list takes', async () => {
    const admin = await t.loginAdmin();
    await record('Alice', 'config.created', { created_at: '2026-03-01T10:00:00.000Z', resource_type: 'x' });
    await record('alice', 'config.deleted', { created_at: '2026-03-02T10:00:00.000Z', resource_type: 'x' });
    await record('bob', 'config.created', { created_at: '2026-03-03T10:00:00.000Z', resource_type: 'y' });
    await record('alice', 'config.created', { created_at: '2026-03-04T10:00:00.000Z', resource_type: 'x' });

    const exported = async (query: string) => {
      const res = await exportLogs(admin, `format=jsonl${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const entries = jsonLines(res.body);
      expect(entries).toEqual(await list(admin, query));
      return entries.map((e) => `${e.user} ${e.timestamp.slice(0, 10)}`);
    };
    expect(await exported('&user=ALICE&resource_type=x&action=config.created')).toEqual([
      'alice 2026-03-04',
      'Alice 2026-03-01',
    ]);
    expect(await exported('&from=2026-03-02T00:00:00Z&to=2026-03-03T23:59:59Z')).toEqual([
      'bob 2026-03-03',
      'alice 2026-03-02',
    ]);
    expect(await exported('&resource_type=none')).toEqual([]);
    // The export of nothing still has its header.
    expect(csvRows((await exportLogs(admin, 'format=csv&resource_type=none')).body)).toEqual([]);
  });

  it('needs admin:audit:read, refuses a bad filter with 422 and audits only exports it answers', async () => {
    const viewer = await t.signInAs(['viewer']);
    expectError(await exportLogs(viewer, 'format=csv'), 403, 'forbidden');
    expectError(
      await t.app.inject({ method: 'GET', url: '/api/admin/audit-logs/export?format=csv' }),
      401,
      'unauthenticated',
    );

    const admin = await t.loginAdmin();
    for (const query of [
      'format=xlsx',
      'format=csv&from=yesterday',
      'format=csv&to=2026-13-01T00:00:00Z',
      `format=csv&user=${'u'.repeat(101)}`,
      'format=csv&from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z',
    ]) {
      const body = expectError(await exportLogs(admin, query), 422, 'validation_failed');
      expect(body.errors?.[0]?.path, query).toMatch(/^(format|from|to|user)$/);
    }
    // The list refuses a reversed range the same way.
    expectError(
      await t.app.inject({
        method: 'GET',
        url: '/api/admin/audit-logs?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z',
        headers: admin.auth,
      }),
      422,
      'validation_failed',
    );
    // A HEAD request downloads nothing: it is answered, and not recorded as an export.
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/api/admin/audit-logs/export?format=csv',
      headers: admin.auth,
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/csv/);
    expect((await list(admin, '&action=audit.exported')).map((e) => e.user)).toEqual([]);
  });

  describe('100,000 entries through a real connection', () => {
    const ROWS = 100_000;
    /** About 500 bytes an entry, as a busy console's entries are. */
    const USER_AGENT = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) ${'x'.repeat(200)}`;

    const insertMany = async () => {
      const start = Date.parse('2026-01-01T00:00:00Z');
      for (let offset = 0; offset < ROWS; offset += 1000) {
        await t.app.db
          .insertInto('audit_logs')
          .values(
            Array.from({ length: 1000 }, (_, index) => ({
              created_at: new Date(start + (offset + index) * 1000).toISOString(),
              actor_id: null,
              actor_username: `bulk-${(offset + index) % 7}`,
              action: 'config.updated',
              resource_type: 'config_item',
              resource_id: String(offset + index),
              resource_name: `Item ${offset + index}, "quoted"`,
              old_value: JSON.stringify({ content: 'before', n: offset + index }),
              new_value: JSON.stringify({ content: 'after', n: offset + index }),
              ip_address: '198.51.100.20',
              user_agent: USER_AGENT,
            })),
          )
          .execute();
      }
    };

    /** Sends a GET to the listening app; the answer's body is read by the caller, at its own pace. */
    const get = (path: string, session: Session) =>
      new Promise<IncomingMessage>((resolve, reject) => {
        const { port } = t.app.server.address() as AddressInfo;
        httpRequest({ host: '127.0.0.1', port, path, headers: session.auth }, resolve)
          .on('error', reject)
          .end();
      });

    /** Reads a body to its end; `onFirstChunk` runs (and is awaited) before the second chunk is taken. */
    const readBody = async (res: IncomingMessage, onFirstChunk?: () => Promise<void>) => {
      const chunks: Buffer[] = [];
      for await (const chunk of res) {
        chunks.push(chunk as Buffer);
        if (chunks.length === 1) await onFirstChunk?.();
      }
      return Buffer.concat(chunks).toString('utf8');
    };

    it('streams every entry, reading the log page by page while the download runs', async () => {
      const admin = await t.loginAdmin();
      await insertMany();
      const total = Number(
        (
          await t.app.db
            .selectFrom('audit_logs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      await t.app.listen({ port: 0, host: '127.0.0.1' });

      // Every entry, newest first (plus this export's own entry).
      const res = await get('/api/admin/audit-logs/export?format=csv', admin);
      expect(res.statusCode).toBe(200);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      const rows = csvRows(await readBody(res));
      expect(rows).toHaveLength(total + 1);
      const ids = rows.map((row) => Number(row[0]));
      expect(ids.every((id, index) => index === 0 || id < ids[index - 1]!)).toBe(true);
      expect(rows.filter((row) => row[3] === 'config.updated')).toHaveLength(ROWS);

      // Not built before it is sent: once the first bytes have arrived, the older half of the log is
      // deleted, and the download, which has not read that far yet, does not hold it.
      const { newest, oldest } = await t.app.db
        .selectFrom('audit_logs')
        .select((eb) => [eb.fn.max('id').as('newest'), eb.fn.min('id').as('oldest')])
        .executeTakeFirstOrThrow();
      const middle = Math.floor((Number(newest) + Number(oldest)) / 2);
      const paused = await get('/api/admin/audit-logs/export?format=jsonl', admin);
      const entries = jsonLines(
        await readBody(paused, async () => {
          await t.app.db.deleteFrom('audit_logs').where('id', '<', middle).execute();
        }),
      );
      const kept = entries.filter((entry) => entry.id >= middle).length;
      const older = entries.length - kept;
      expect(kept).toBe(Number(newest) - middle + 2);
      expect(older, 'entries read before the deletion').toBeLessThan((middle - Number(oldest)) / 2);
    }, 120_000);

    it('cuts the download off when the database fails part way, instead of ending it as if complete', async () => {
      const admin = await t.loginAdmin();
      await insertMany();
      await t.app.listen({ port: 0, host: '127.0.0.1' });

      const res = await get('/api/admin/audit-logs/export?format=csv', admin);
      expect(res.statusCode).toBe(200);
      const read = readBody(res, async () => {
        await sql`ALTER TABLE audit_logs RENAME TO audit_logs_away`.execute(t.app.db);
      });
      await expect(read).rejects.toThrow(/aborted|socket hang up|ECONNRESET/);
      await sql`ALTER TABLE audit_logs_away RENAME TO audit_logs`.execute(t.app.db);
    }, 120_000);
  });
});
