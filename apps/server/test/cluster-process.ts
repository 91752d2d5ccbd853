import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { LoginResponse } from '@lumi/contract';
import { freePort, NodeProcess, type LogLine as ProcessLogLine } from '@lumi/test-support/server-process';
import { ADMIN } from './helper.js';

/**
 * A real server process (src/server.ts through tsx, as `npm run dev` runs it) for the tests that need
 * several instances on one PostgreSQL database: what one instance does must reach the others through the
 * database alone, as behind a load balancer. Started by the shared launcher of @lumi/test-support.
 */

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The secret every instance of a cluster shares (LUMI_SECRET), so a token signed by one verifies on all. */
export const CLUSTER_SECRET = 'lumi-cluster-test-secret-0123456789abcdefghijklmnop';

/** One JSON line the server logged. */
export interface LogLine extends ProcessLogLine {
  job?: string;
  instance?: string;
}

export class ServerProcess {
  private constructor(
    readonly name: string,
    readonly url: string,
    private readonly process: NodeProcess,
    /** A data directory of its own, removed on stop. */
    private readonly dataDir: string | null,
  ) {}

  /**
   * Starts an instance on `databaseUrl` (SQLite in its data directory when empty) and resolves once it
   * answers /api/health. A `dataDir` given is kept on stop, so a restart finds the same SQLite database.
   */
  static async start(
    name: string,
    databaseUrl: string,
    env: Record<string, string> = {},
    options: { dataDir?: string } = {},
  ) {
    const port = await freePort();
    const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), `lumi-${name}-`));
    const url = `http://127.0.0.1:${port}`;
    const child = await NodeProcess.start('src/server.ts', {
      name,
      cwd: serverDir,
      execArgv: ['--import', 'tsx'],
      healthUrl: `${url}/api/health`,
      env: {
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LUMI_SECRET: CLUSTER_SECRET,
        LUMI_ADMIN_USERNAME: ADMIN.username,
        LUMI_ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'debug',
        ...env,
      },
    });
    return new ServerProcess(name, url, child, options.dataDir ? null : dataDir);
  }

  get logs(): LogLine[] {
    return this.process.logs;
  }

  /** The instance id it logged at start (also the holder name in job_leases). */
  instanceId(): string | undefined {
    return /Lumi Admin is running \(\w+, instance ([^)]+)\)/.exec(this.process.output())?.[1];
  }

  request(method: string, url: string, options: { token?: string; body?: unknown; headers?: object } = {}) {
    return fetch(`${this.url}${url}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  }

  async login(username: string, password: string): Promise<string> {
    const res = await this.request('POST', '/api/auth/login', { body: { username, password } });
    if (res.status !== 200) throw new Error(`sign-in on ${this.name}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as LoginResponse).access_token;
  }

  /** How many times the job ran here, by the debug line the scheduler logs after each run. */
  runsOf(job: string): number {
    return this.logs.filter((line) => line.msg === 'job ran' && line.job === job).length;
  }

  get running(): boolean {
    return this.process.running;
  }

  /** Sends `signal` and waits for the exit (SIGKILL after 20 s); resolves with the exit code. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number> {
    const code = await this.process.stop(signal);
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
    return code;
  }
}

/** Polls `check` until it returns a value other than undefined; fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}
