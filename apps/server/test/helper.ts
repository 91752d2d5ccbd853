import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ErrorResponse, LoginResponse } from '@lumi/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeEach, expect, inject } from 'vitest';
import { buildApp, type AppOptions } from '../src/app.js';
import { seed } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type DatabaseHandle, type DialectName } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { PasswordHasher } from '../src/lib/password.js';
import {
  dropPostgresDatabase,
  postgresUrl,
  withAdminClient,
  type DatabaseTemplates,
} from './database-templates.js';

/**
 * Test harness: every call of createTestApp builds a freshly migrated and seeded app on its own database:
 * an in-memory SQLite database, or a PostgreSQL database created for it next to TEST_DATABASE_URL's (the
 * role needs CREATEDB) and dropped by close(). Either is a copy of the run's migrated template
 * (test/database-templates.ts), not migrated again.
 */

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/** The databases the API tests run on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const dialects: DialectName[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export const TEST_SECRET = new TextEncoder().encode('lumi-test-secret-0123456789abcdefghijklmnopqrstuvwxyz');
export const ADMIN = { username: 'admin', password: 'Seeded-admin-pass-42' } as const;

/** scrypt at 2^10 instead of 2^17: the same code path, a thousandth of the work. */
const cheapHasher = () => new PasswordHasher({ N: 2 ** 10, r: 8, p: 1 });

export interface Session {
  accessToken: string;
  /** The refresh token from the lumi_refresh cookie. */
  refreshToken: string;
  /** Authorization header, ready to spread into `headers`. */
  auth: { authorization: string };
  body: LoginResponse;
}

export interface CreatedUser {
  id: number;
  username: string;
  email: string;
  name: string;
  password: string;
}

export interface TestApp {
  app: FastifyInstance;
  dialect: DialectName;
  /** Ids of the seeded roles by name. */
  roleIds: Record<'admin' | 'operator' | 'viewer', number>;
  adminId: number;
  /** Signs in through the API and fails the test unless it succeeds. */
  login(username: string, password: string): Promise<Session>;
  loginAdmin(): Promise<Session>;
  /** Creates an active user with the named roles (through the users service, as an admin would). */
  createUser(options: {
    roles: string[];
    username?: string;
    email?: string;
    name?: string;
    password?: string;
  }): Promise<CreatedUser>;
  /** Creates a user with the named roles and signs them in. */
  signInAs(roles: string[], username?: string): Promise<Session & { user: CreatedUser }>;
  /**
   * PostgreSQL only: another instance of the app on the same database, with a connection pool of its own,
   * as a second server process behind a load balancer would have. Closed with this app.
   */
  secondInstance(): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export const REFRESH_COOKIE = 'lumi_refresh';

let counter = 0;

function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}_${process.pid}_${counter}_${randomBytes(3).toString('hex')}`;
}

/** The migrated templates test/global-setup.ts built for this run (none outside `vitest` with its config). */
const templates = inject('databaseTemplates') as DatabaseTemplates | undefined;
let sqliteImage: Buffer | undefined;

/** A freshly migrated SQLite database: in memory, or in `file` (which must not exist yet). */
export async function migratedSqlite(file?: string): Promise<DatabaseHandle> {
  if (!templates) {
    const handle = openDatabase({ sqliteFile: file ?? ':memory:' });
    await migrateToLatest(handle);
    return handle;
  }
  if (file) {
    copyFileSync(templates.sqliteFile, file);
    return openDatabase({ sqliteFile: file });
  }
  sqliteImage ??= readFileSync(templates.sqliteFile);
  return openDatabase({ sqliteImage });
}

/**
 * Copying the template takes about half a second (CREATE DATABASE … TEMPLATE writes the whole database to
 * the WAL), so each copy is made while the test before runs: `spare` is the next test's database. Drops
 * (half a second more) likewise go on while the next test runs; the file's last test waits for them.
 */
let spare: Promise<string> | undefined;
const dropsUnderWay: Promise<void>[] = [];

function copyOfTemplate(template: string): Promise<string> {
  const name = databaseName();
  const made = withAdminClient(TEST_DATABASE_URL!, (client) =>
    client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`),
  ).then(() => name);
  made.catch(() => undefined); // a failure surfaces where the copy is taken
  return made;
}

afterAll(async () => {
  const left = await spare?.catch(() => undefined);
  spare = undefined;
  if (left) dropsUnderWay.push(dropPostgresDatabase(TEST_DATABASE_URL!, left));
  await Promise.all(dropsUnderWay.splice(0));
});

/** A PostgreSQL database name of this run (global-setup.ts drops any a failed test left behind). */
function databaseName(): string {
  return uniqueName(templates ? `lumi_test_${templates.runId}` : 'lumi_test');
}

/**
 * A PostgreSQL database of its own, next to TEST_DATABASE_URL's, migrated unless `empty`, and a function
 * that drops it.
 */
export async function createPostgresDatabase(
  options: { empty?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const template = options.empty ? undefined : templates?.postgres;
  let name: string;
  if (template) {
    // Taken before waiting, so tests that make databases at once each get their own.
    const taken = spare ?? copyOfTemplate(template);
    spare = copyOfTemplate(template);
    name = await taken;
  } else {
    name = databaseName();
    await withAdminClient(TEST_DATABASE_URL, (client) => client.query(`CREATE DATABASE "${name}"`));
  }
  const url = postgresUrl(TEST_DATABASE_URL, name);
  const drop = () => dropPostgresDatabase(TEST_DATABASE_URL, name);
  if (!options.empty && !template) {
    const handle = openDatabase({ databaseUrl: url, poolSize: 1 });
    await migrateToLatest(handle).finally(() => handle.db.destroy());
  }
  return { url, drop };
}

/** Drops a test's database while the next test runs; the file's afterAll waits for it (and fails with it). */
function dropInBackground(drop: () => Promise<void>): void {
  const dropping = drop();
  dropping.catch(() => undefined); // reported by afterAll, not as an unhandled rejection
  dropsUnderWay.push(dropping);
}

export async function createTestApp(options: {
  dialect: DialectName;
  /**
   * Ingestion stores from its worker thread, as `npm start` runs it (modules/ingestion/ingest-writer.ts);
   * SQLite is then a file in a scratch directory instead of in memory.
   */
  ingestWorker?: boolean;
  /** Runs before the app is ready, e.g. to add a route for a test. */
  configure?: (app: FastifyInstance) => void;
  /** A directory holding a built console; by default there is none. */
  consoleRoot?: string;
  /** Further options of buildApp, such as a clock the test controls, telemetry or Telegram settings. */
  app?: Pick<
    AppOptions,
    'now' | 'telemetry' | 'telegram' | 'trustProxy' | 'authCacheSeconds' | 'sender' | 'invalidation'
  >;
}): Promise<TestApp> {
  let handle: DatabaseHandle;
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (options.dialect === 'postgres') {
    const database = await createPostgresDatabase();
    databaseUrl = database.url;
    dropDatabase = database.drop;
    handle = openDatabase({ databaseUrl });
  } else if (options.ingestWorker) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lumi-test-'));
    handle = await migratedSqlite(path.join(dir, 'lumi.db'));
    dropDatabase = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    handle = await migratedSqlite();
  }

  const build = (db: DatabaseHandle) =>
    buildApp({
      db: db.db,
      dialect: db.dialect,
      ingestDatabase: !options.ingestWorker
        ? undefined
        : db.file
          ? { sqliteFile: db.file }
          : databaseUrl
            ? { databaseUrl }
            : undefined,
      secret: TEST_SECRET,
      logLevel: 'silent',
      consoleRoot: options.consoleRoot ?? null,
      passwordHasher: cheapHasher(),
      ...options.app,
    });

  let app: FastifyInstance | undefined;
  const others: Array<{ app: FastifyInstance; handle: DatabaseHandle }> = [];
  const close = async () => {
    for (const other of others) {
      await other.app.close();
      await other.app.services.ingestion.close();
      await other.handle.db.destroy();
    }
    await app?.close();
    await app?.services.ingestion.close();
    await handle.db.destroy();
    if (dropDatabase) dropInBackground(dropDatabase);
  };

  try {
    app = await build(handle);
    const config = loadConfig({ LUMI_ADMIN_USERNAME: ADMIN.username, LUMI_ADMIN_PASSWORD: ADMIN.password });
    await seed(app.db, app.services, config);
    options.configure?.(app);
    await app.ready();
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }

  const ready = app;
  const roleIdsOf = async (names: string[]) => {
    const all = await ready.services.roles.list();
    return names.map((name) => {
      const role = all.find((r) => r.name === name);
      if (!role) throw new Error(`No role named ${name}`);
      return role.id;
    });
  };
  const [adminRoleId, operatorRoleId, viewerRoleId] = await roleIdsOf(['admin', 'operator', 'viewer']);
  const { users } = await ready.services.users.list({ search: ADMIN.username, page: 1, limit: 100 });
  const admin = users.find((user) => user.username === ADMIN.username);
  if (!admin) throw new Error('The first admin was not seeded');

  const login = async (username: string, password: string): Promise<Session> => {
    const res = await ready.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<LoginResponse>();
    const refreshToken = cookieValue(res, REFRESH_COOKIE);
    if (!refreshToken) throw new Error('The login response set no refresh cookie');
    return {
      accessToken: body.access_token,
      refreshToken,
      auth: { authorization: `Bearer ${body.access_token}` },
      body,
    };
  };

  const createUser: TestApp['createUser'] = async (user) => {
    const username = user.username ?? uniqueName('user').replaceAll('_', '-');
    const created = {
      username,
      email: user.email ?? `${username}@example.test`,
      name: user.name ?? `Test ${username}`,
      password: user.password ?? `Pw-${randomBytes(6).toString('hex')}`,
    };
    const result = await ready.services.users.create(
      { id: null, username: null, ip: null, userAgent: 'test helper' },
      { ...created, roles: await roleIdsOf(user.roles) },
    );
    return { ...created, id: result.id };
  };

  return {
    app: ready,
    dialect: options.dialect,
    roleIds: { admin: adminRoleId!, operator: operatorRoleId!, viewer: viewerRoleId! },
    adminId: admin.id,
    login,
    loginAdmin: () => login(ADMIN.username, ADMIN.password),
    createUser,
    signInAs: async (roleNames, username) => {
      const user = await createUser({ roles: roleNames, username });
      return { ...(await login(user.username, user.password)), user };
    },
    secondInstance: async () => {
      if (!databaseUrl) throw new Error('A second instance needs PostgreSQL');
      const own = openDatabase({ databaseUrl });
      const other = await build(own);
      others.push({ app: other, handle: own });
      await other.ready();
      return other;
    },
    close,
  };
}

/**
 * A fresh app for every test of the enclosing describe block, closed (and its database dropped) after it.
 * The returned object forwards to the current test's app.
 */
export function useTestApp(
  dialect: DialectName,
  options: {
    configure?: (app: FastifyInstance) => void;
    consoleRoot?: string;
    ingestWorker?: boolean;
    app?: Pick<
      AppOptions,
      'now' | 'telemetry' | 'telegram' | 'trustProxy' | 'authCacheSeconds' | 'sender' | 'invalidation'
    >;
  } = {},
) {
  let current: TestApp | undefined;
  beforeEach(async () => {
    current = await createTestApp({ dialect, ...options });
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const get = (): TestApp => {
    if (!current) throw new Error('The test app exists only inside a test');
    return current;
  };
  return {
    get app() {
      return get().app;
    },
    get roleIds() {
      return get().roleIds;
    },
    get adminId() {
      return get().adminId;
    },
    login: (username: string, password: string) => get().login(username, password),
    loginAdmin: () => get().loginAdmin(),
    createUser: (user: Parameters<TestApp['createUser']>[0]) => get().createUser(user),
    signInAs: (roles: string[], username?: string) => get().signInAs(roles, username),
    secondInstance: () => get().secondInstance(),
  };
}

export function cookieValue(res: LightMyRequestResponse, name: string): string | undefined {
  return res.cookies.find((c) => c.name === name)?.value || undefined;
}

/**
 * Asserts the status and the one error shape, {detail, code, errors?, request_id} with `errors` only for
 * validation failures, and returns the body.
 */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  code?: ErrorResponse['code'],
): ErrorResponse {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json<ErrorResponse>();
  const validation = body.code === 'validation_failed';
  expect(body).toEqual({
    detail: expect.any(String),
    code: code ?? expect.any(String),
    request_id: res.headers['x-request-id'],
    ...(validation && { errors: expect.any(Array) }),
    ...(body.delivery_id !== undefined && { delivery_id: expect.any(Number) }),
  });
  expect(body.detail.length).toBeGreaterThan(0);
  if (validation) {
    expect(body.errors!.length).toBeGreaterThan(0);
    for (const error of body.errors!) {
      const at = error.line !== undefined && { line: expect.any(Number), column: expect.any(Number) };
      expect(error).toEqual({ path: expect.any(String), message: expect.any(String), ...at });
    }
  }
  return body;
}
