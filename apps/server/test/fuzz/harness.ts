import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_KEY_SCOPES, type ApiKeyCreated } from '@lumi/contract';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { createTestApp, type dialects, type Session, type TestApp } from '../helper.js';
import { createChannel, createTemplate, createTopic } from '../messaging-helper.js';
import { changeCounts, watchChanges } from './change-log.js';
import type { Components, JsonSchema } from './schema-arbitrary.js';

/**
 * What the fuzz suites share: the operations of the OpenAPI document, an app with records for them to name,
 * and the checks of an answer.
 */

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: JsonSchema;
}

export interface Operation {
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
export async function readOperations(): Promise<{ operations: Operation[]; components: Components }> {
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

/** Values that name existing records, so that hostile requests also reach the code behind a lookup. */
export type Known = Record<string, string[]>;

/** What an error answer must never show: a stack frame, source paths, SQL or driver messages. */
export const LEAK =
  /(\n\s+at |\bat [\w$.<>]+ \(|\.(ts|js|mjs|cjs):\d+|node_modules|SQLITE_|sqlite3|syntax error|relation "|violates|duplicate key|pg_[a-z]|kysely|TypeError|ReferenceError|RangeError)/i;

export interface Harness {
  t: TestApp;
  admin: Session;
  key: string;
  known: Known;
}

/**
 * An app on `dialect` with a stand-in for the built console (so its routes answer as in production), signed
 * in as the admin, with an API key of every scope. `close` ends it and removes the stand-in.
 */
export async function startHarness(
  dialect: (typeof dialects)[number],
): Promise<Harness & { close(): Promise<void> }> {
  const consoleRoot = mkdtempSync(path.join(tmpdir(), 'lumi-fuzz-console-'));
  writeFileSync(path.join(consoleRoot, 'index.html'), '<!doctype html><title>Lumi Admin</title>');
  const t = await createTestApp({ dialect, consoleRoot });
  await watchChanges(t.app.db as unknown as Kysely<unknown>, dialect);
  const harness: Harness = { t, admin: await t.loginAdmin(), key: '', known: {} };
  await renewKey(harness);
  return {
    ...harness,
    async close() {
      await t.close();
      rmSync(consoleRoot, { recursive: true, force: true });
    },
  };
}

/**
 * Fresh records for each operation, since the operations before it may have deleted or changed the last
 * ones: a channel with a topic, a template, a config item, a role, a user, a budget and a price.
 */
export async function seedRecords(h: Harness): Promise<void> {
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
export async function renewKey(h: Harness) {
  const res = await h.t.app.inject({
    method: 'POST',
    url: '/api/admin/api-keys',
    headers: h.admin.auth,
    payload: { name: `fuzz ${Date.now()}`, scopes: [...API_KEY_SCOPES] },
  });
  expect(res.statusCode, res.body).toBe(201);
  h.key = res.json<ApiKeyCreated>().key;
}

/** The changes the database noted so far, by table (change-log.ts). */
export function fingerprint(h: Harness): Promise<Record<string, number>> {
  return changeCounts(h.t.app.db as unknown as Kysely<unknown>);
}
