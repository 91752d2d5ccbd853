import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoginResponse } from '@lumi/contract';
import { ADMIN } from './helper.js';

/**
 * A real server process (src/server.ts through tsx, as `npm run dev` runs it) for the tests that need
 * several instances on one PostgreSQL database: what one instance does must reach the others through the
 * database alone, as behind a load balancer.
 */

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The secret every instance of a cluster shares (LUMI_SECRET), so a token signed by one verifies on all. */
export const CLUSTER_SECRET = 'lumi-cluster-test-secret-0123456789abcdefghijklmnop';

/** One JSON line the server logged. */
export interface LogLine {
  msg?: string;
  job?: string;
  instance?: string;
  [key: string]: unknown;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port: 0, host: '127.0.0.1' }, () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export class ServerProcess {
  readonly logs: LogLine[] = [];
  private exit: Promise<number>;
  private output = '';

  private constructor(
    readonly name: string,
    readonly url: string,
    private readonly child: ChildProcess,
    /** A data directory of its own, removed on stop. */
    private readonly dataDir: string | null,
  ) {
    this.exit = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
    let partial = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.output += chunk;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        try {
          this.logs.push(JSON.parse(line) as LogLine);
        } catch {
          // Not a log line.
        }
      }
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.output += chunk;
    });
  }

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
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: serverDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
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
    const server = new ServerProcess(
      name,
      `http://127.0.0.1:${port}`,
      child,
      options.dataDir ? null : dataDir,
    );
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name} exited at start:\n${server.output}`);
      try {
        if ((await fetch(`${server.url}/api/health`)).ok) return server;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${name} did not answer within 60 s:\n${server.output}`);
      }
      await sleep(100);
    }
  }

  /** The instance id it logged at start (also the holder name in job_leases). */
  instanceId(): string | undefined {
    return /instance ([^)]+)\)/.exec(this.output)?.[1];
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
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends `signal` and waits for the exit (SIGKILL after 20 s); resolves with the exit code. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number> {
    if (this.running) {
      this.child.kill(signal);
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 20_000);
      await this.exit;
      clearTimeout(timer);
    }
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
    return this.exit;
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
