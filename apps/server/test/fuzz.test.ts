import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_KEY_SCOPES, type ApiKeyCreated } from '@lumi/contract';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type Session, type TestApp } from './helper.js';
import {
  encodeSegment,
  hostileBody,
  hostileSegment,
  hostileString,
  hostileValue,
  taint,
} from './fuzz/hostile-values.js';
import {
  pathsOf,
  replaceAt,
  taintStrings,
  validish,
  type Components,
  type JsonSchema,
} from './fuzz/schema-arbitrary.js';
import { createChannel, createTemplate, createTopic } from './messaging-helper.js';

/**
 * The permanent attack (hardening issue): every operation of the OpenAPI document, so a new route is
 * covered without being listed here, gets requests built from its own schemas with hostile values put in
 * (malformed JSON, wrong types, oversized strings, control, RTL and zero-width characters, deep nesting,
 * negative, huge and fractional numbers, odd ids, injection strings), as an authorised caller, on SQLite
 * and on PostgreSQL. It fails on any 5xx, on an error answer that shows a stack trace or SQL, and on a
 * refused write that changed the database anyway.
 *
 * fast-check runs FUZZ_RUNS requests per operation (default 25) from FUZZ_SEED (fixed, so a failure
 * comes back the same way); `npm run fuzz` is the longer run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: JsonSchema;
}

interface Operation {
  method: string;
  /** The OpenAPI path, with {params}. */
  path: string;
  permission: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }
    >
  >;
  components?: { schemas?: Components };
}

/** The operations of the OpenAPI document, each with the permission its route declares. */
async function readOperations(): Promise<{ operations: Operation[]; components: Components }> {
  const t = await createTestApp({ dialect: 'sqlite' });
  try {
    const doc = t.app.swagger() as unknown as OpenApiDocument;
    const permissions = new Map(t.app.routeCatalogue.map((r) => [`${r.method} ${r.url}`, r.permission]));
    const operations: Operation[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === '*' ? '*' : `:${name}`));
        operations.push({
          method: method.toUpperCase(),
          path,
          permission: permissions.get(`${method.toUpperCase()} ${url}`) ?? 'public',
          parameters: operation.parameters ?? [],
          body: operation.requestBody?.content?.['application/json']?.schema,
        });
      }
    }
    return { operations, components: doc.components?.schemas ?? {} };
  } finally {
    await t.close();
  }
}

const { operations, components } = await readOperations();

interface FuzzRequest {
  url: string;
  payload?: string | Buffer;
  contentType?: string;
  remoteAddress: string;
}

/** Values that name existing records, so that hostile requests also reach the code behind a lookup. */
type Known = Record<string, string[]>;

function requestFor(op: Operation, known: Known): fc.Arbitrary<FuzzRequest> {
  const pathParams = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const pathArb = fc
    .tuple(
      ...pathParams.map((name) =>
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...(known[name] ?? ['1'])) },
          {
            weight: 1,
            arbitrary: fc
              .tuple(fc.constantFrom(...(known[name] ?? ['1'])), taint)
              .map(([value, suffix]) => encodeSegment(value + suffix)),
          },
          { weight: 1, arbitrary: hostileSegment },
        ),
      ),
    )
    .map((values) => pathParams.reduce((path, name, i) => path.replace(`{${name}}`, values[i]!), op.path));

  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const queryValue = (schema: JsonSchema | undefined) =>
    validish(schema, components).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  const queryArb = fc
    .tuple(
      ...queryParams.map((p) =>
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 3, arbitrary: queryValue(p.schema) },
          {
            weight: 2,
            arbitrary: fc.tuple(queryValue(p.schema), taint).map(([value, suffix]) => value + suffix),
          },
          { weight: 2, arbitrary: hostileString },
        ),
      ),
      fc.option(fc.tuple(hostileString, hostileString), { nil: undefined, freq: 8 }),
    )
    .map((values) => {
      const search = new URLSearchParams();
      queryParams.forEach((p, i) => {
        const value = values[i] as string | undefined;
        if (value !== undefined) search.append(p.name, value.slice(0, 2000));
      });
      const extra = values[queryParams.length] as [string, string] | undefined;
      if (extra) search.append(extra[0].slice(0, 100) || 'x', extra[1].slice(0, 2000));
      const text = search.toString();
      return text ? `?${text}` : '';
    });

  const json = (value: unknown) => ({
    payload: JSON.stringify(value) ?? 'null',
    contentType: 'application/json',
  });
  const valid = validish(op.body ?? { type: 'object' }, components);
  const mutated = fc
    .tuple(valid, fc.nat(), fc.oneof(hostileValue, fc.constant(undefined)), fc.boolean())
    .map(([value, pick, hostile, addKey]) => {
      if (addKey && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        return json({ ...value, ['__proto__']: hostile, extra: hostile });
      }
      const paths = pathsOf(value);
      return json(replaceAt(value, paths[pick % paths.length]!, hostile) ?? null);
    });
  const hasBody = op.method !== 'GET' && op.method !== 'HEAD';
  const bodyArb: fc.Arbitrary<{ payload?: string | Buffer; contentType?: string }> = hasBody
    ? fc.oneof(
        { weight: 5, arbitrary: mutated },
        {
          weight: 4,
          arbitrary: fc.tuple(valid, taint).map(([value, suffix]) => json(taintStrings(value, suffix))),
        },
        { weight: 2, arbitrary: valid.map(json) },
        {
          weight: 2,
          arbitrary: hostileBody.map((b) => ({ payload: b.payload, contentType: b.contentType })),
        },
      )
    : fc.constant({});

  return fc.tuple(pathArb, queryArb, bodyArb, fc.ipV4()).map(([path, query, body, remoteAddress]) => ({
    url: `${path}${query}`,
    ...body,
    remoteAddress,
  }));
}

/** What an error answer must never show: a stack frame, source paths, SQL or driver messages. */
const LEAK =
  /(\n\s+at |\bat [\w$.<>]+ \(|\.(ts|js|mjs|cjs):\d+|node_modules|SQLITE_|sqlite3|syntax error|relation "|violates|duplicate key|pg_[a-z]|kysely|TypeError|ReferenceError|RangeError)/i;

/** Rows that a refused request may legitimately write: sign-in bookkeeping and its audit. */
const VOLATILE_TABLES = new Set(['login_failures', 'sessions', 'refresh_tokens']);

interface Harness {
  t: TestApp;
  admin: Session;
  key: string;
  known: Known;
}

/** A stand-in for the built console, so its routes answer as in production. */
const consoleRoot = mkdtempSync(path.join(tmpdir(), 'lumi-fuzz-console-'));
writeFileSync(path.join(consoleRoot, 'index.html'), '<!doctype html><title>Lumi Admin</title>');

async function startHarness(dialect: (typeof dialects)[number]): Promise<Harness> {
  const t = await createTestApp({ dialect, consoleRoot });
  const harness: Harness = { t, admin: await t.loginAdmin(), key: '', known: {} };
  await renewKey(harness);
  return harness;
}

/**
 * Fresh records for each operation, since the operations before it may have deleted or changed the last
 * ones: a channel with a topic, a template, a config item, a role, a user, a budget and a price.
 */
async function seedRecords(h: Harness): Promise<void> {
  const { t, admin } = h;
  const n = Math.floor(Math.random() * 1e9);
  const post = async (url: string, payload: object, method: 'POST' | 'PUT' = 'POST') => {
    const res = await t.app.inject({ method, url, headers: admin.auth, payload });
    expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
    return res.json<{ id?: number }>();
  };
  const channel = await createChannel(t, admin);
  const topic = await createTopic(t, admin, channel.id);
  const template = await createTemplate(t, admin, { channel_id: channel.id, topic_id: topic.id });
  await post(
    `/api/v1/messaging/templates/${template.id}`,
    { ...template, description: 'second version' },
    'PUT',
  );
  const item = await post('/api/admin/api/config/moods', { name: `calm ${n}`, content: { tone: 'calm' } });
  const role = await post('/api/roles', { name: `fuzz-${n}`, permissions: ['metrics:read'] });
  const user = await t.createUser({ roles: ['viewer'] });
  const provider = `provider-${n}`;
  await post(`/api/config/token-budgets/${provider}`, { daily_token_limit: 1000 });
  await post(
    `/api/config/model-prices/model-${n}`,
    { input_usd_per_million: 1, output_usd_per_million: 2 },
    'PUT',
  );
  h.known = {
    id: [channel.id, template.id, item.id, role.id, user.id].map(String),
    topic_id: [String(topic.id)],
    version: ['1', '2'],
    revision: ['1'],
    domain: ['moods', 'personalities', 'feature-flags'],
    provider: [provider, 'openai'],
    model: [`model-${n}`, 'gemini-1.5-pro'],
    '*': ['overview', 'metrics', 'index.html'],
  };
}

/** A key with every scope; made again when a fuzzed request revoked it. */
async function renewKey(h: Harness) {
  const res = await h.t.app.inject({
    method: 'POST',
    url: '/api/admin/api-keys',
    headers: h.admin.auth,
    payload: { name: `fuzz ${Date.now()}`, scopes: [...API_KEY_SCOPES] },
  });
  expect(res.statusCode, res.body).toBe(201);
  h.key = res.json<ApiKeyCreated>().key;
}

/** A digest of every table (rows in any order), without what a refused request may change. */
async function fingerprint(h: Harness): Promise<Record<string, string>> {
  const digest: Record<string, string> = {};
  const db = h.t.app.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  for (const table of await db.introspection.getTables()) {
    if (VOLATILE_TABLES.has(table.name)) continue;
    const rows = await db.selectFrom(table.name).selectAll().execute();
    const kept = rows
      .filter((row) => !(table.name === 'audit_logs' && String(row.action).startsWith('auth.')))
      .map((row) => {
        const { last_used_at: _used, last_login: _login, ...rest } = row;
        return JSON.stringify(rest);
      })
      .sort();
    digest[table.name] = createHash('sha256').update(kept.join('\n')).digest('hex');
  }
  return digest;
}

function describeRequest(op: Operation, req: FuzzRequest) {
  const body = req.payload === undefined ? '' : String(req.payload).slice(0, 300);
  return `${op.method} ${req.url.slice(0, 300)} [${req.contentType ?? 'no content type'}] ${body}`;
}

/** Answers per status class and operation, printed at the end: a fuzz run that never got past the
 * validator would show only 4xx for every writing operation. */
const seen = new Map<string, Record<string, number>>();
const answersByDialect = new Map<string, Record<string, Record<string, number>>>();

async function attack(h: Harness, op: Operation, req: FuzzRequest): Promise<void> {
  if (op.permission === 'api-key') {
    const probe = await h.t.app.inject({
      method: 'GET',
      url: '/api/bot/config',
      headers: { authorization: `Bearer ${h.key}` },
    });
    if (probe.statusCode === 401) await renewKey(h);
  }
  const auth =
    op.permission === 'public'
      ? {}
      : { authorization: op.permission === 'api-key' ? `Bearer ${h.key}` : h.admin.auth.authorization };
  const writes = op.method !== 'GET' && op.method !== 'HEAD';
  const before = writes ? await fingerprint(h) : null;
  const res: LightMyRequestResponse = await h.t.app.inject({
    method: op.method as 'GET',
    url: req.url,
    headers: { ...auth, ...(req.contentType && { 'content-type': req.contentType }) },
    ...(req.payload !== undefined && { payload: req.payload }),
    remoteAddress: req.remoteAddress,
  });
  const what = `${describeRequest(op, req)} → ${res.statusCode} ${res.body.slice(0, 500)}`;
  const counts = seen.get(`${op.method} ${op.path}`) ?? {};
  counts[`${String(res.statusCode)[0]}xx`] = (counts[`${String(res.statusCode)[0]}xx`] ?? 0) + 1;
  seen.set(`${op.method} ${op.path}`, counts);
  expect(res.statusCode, what).toBeLessThan(500);
  if (res.statusCode >= 400 && String(res.headers['content-type']).startsWith('application/json')) {
    const body = res.json<{ detail?: unknown; code?: unknown }>();
    expect(typeof body.detail, what).toBe('string');
    expect(typeof body.code, what).toBe('string');
    expect(LEAK.exec(res.body)?.[0] ?? null, what).toBeNull();
  }
  if (before && res.statusCode >= 400)
    expect(await fingerprint(h), `a refused write changed data: ${what}`).toEqual(before);
  if (res.statusCode === 401 && op.permission !== 'public' && op.permission !== 'api-key') {
    // Only a fuzzed request that ended this very session could do this; carry on signed in again.
    h.admin = await h.t.loginAdmin();
  }
}

afterAll(() => rmSync(consoleRoot, { recursive: true, force: true }));

describe.each(dialects)('fuzzing every operation of the OpenAPI document on %s', (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(dialect);
  }, 120_000);
  afterAll(async () => {
    await h?.t.close();
    const totals: Record<string, number> = {};
    for (const counts of seen.values()) {
      for (const [status, n] of Object.entries(counts)) totals[status] = (totals[status] ?? 0) + n;
    }
    answersByDialect.set(dialect, Object.fromEntries(seen));
    const neverAccepted = [...seen].filter(([, counts]) => !counts['2xx']).map(([op]) => op);
    process.stdout.write(
      `fuzz on ${dialect}: ${JSON.stringify(totals)}; never answered 2xx: ${neverAccepted.join(', ') || 'none'}\n`,
    );
    seen.clear();
  });

  it('covers the whole document', () => {
    expect(operations.length).toBeGreaterThan(60);
  });

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s',
    async (_, op) => {
      await seedRecords(h);
      await fc.assert(
        fc.asyncProperty(requestFor(op, h.known), (req) => attack(h, op, req)),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
    300_000,
  );
});

describe('both databases', () => {
  it.runIf(dialects.length === 2)('answer the same requests with the same kinds of status', () => {
    expect(answersByDialect.get('postgres')).toEqual(answersByDialect.get('sqlite'));
  });
});
