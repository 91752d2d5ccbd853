import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, NodeProcess } from '@lumi/test-support/server-process';
import pg from 'pg';

/**
 * A real Lumi for the integration test: apps/server/src/server.ts through tsx (as `npm run dev` and the
 * server's cluster tests run it) in a child process on a free port with a scratch DATA_DIR, on SQLite or
 * on a PostgreSQL database created next to TEST_DATABASE_URL's and dropped afterwards. The SDK reaches it
 * only over HTTP, as a bot does.
 */

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../apps/server');
export const ADMIN = { username: 'admin', password: 'Sdk-integration-pass-42' } as const;

export type Dialect = 'sqlite' | 'postgres';
export const dialects: Dialect[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export class LumiServer {
  private constructor(
    readonly url: string,
    private readonly process: NodeProcess,
    private readonly cleanup: () => Promise<void>,
    private token = '',
  ) {}

  static async start(dialect: Dialect, env: Record<string, string> = {}): Promise<LumiServer> {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumi-sdk-'));
    let databaseUrl = '';
    let dropDatabase = async () => {};
    if (dialect === 'postgres') {
      const admin = process.env.TEST_DATABASE_URL!;
      const name = `lumi_sdk_${process.pid}_${Date.now()}`;
      await withClient(admin, (client) => client.query(`CREATE DATABASE "${name}"`));
      const url = new URL(admin);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      dropDatabase = async () => {
        await withClient(admin, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      };
    }
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    try {
      const child = await NodeProcess.start('src/server.ts', {
        name: `Lumi (${dialect})`,
        cwd: serverDir,
        execArgv: ['--import', 'tsx'],
        healthUrl: `${url}/api/health`,
        timeoutMs: 60_000,
        env: {
          DATABASE_URL: databaseUrl,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LUMI_ADMIN_USERNAME: ADMIN.username,
          LUMI_ADMIN_PASSWORD: ADMIN.password,
          LOG_LEVEL: 'warn',
          ...env,
        },
      });
      const cleanup = async () => {
        await child.stop('SIGTERM');
        await dropDatabase();
        rmSync(dataDir, { recursive: true, force: true });
      };
      return new LumiServer(url, child, cleanup);
    } catch (error) {
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Calls the API as the first admin (signed in on first use); throws on a status outside 2xx. */
  async admin<T>(method: string, route: string, body?: unknown): Promise<T> {
    if (!this.token) {
      const login = await this.call<{ access_token: string }>('POST', '/api/auth/login', ADMIN);
      this.token = login.access_token;
    }
    return this.call<T>(method, route, body, this.token);
  }

  private async call<T>(method: string, route: string, body?: unknown, token?: string): Promise<T> {
    const response = await fetch(`${this.url}${route}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  output(): string {
    return this.process.output();
  }

  stop(): Promise<void> {
    return this.cleanup();
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
