// What a run of `npm run bench` (scripts/bench.mjs) starts and creates: a scratch data directory, scratch
// PostgreSQL databases beside DATABASE_URL's, built servers on free ports, the TypeScript generators that
// load a scratch database, and fake Bot APIs. cleanUp() removes them all however the run ends.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { FakeBotApi } from '@lumi/test-support/fake-bot-api';
import { freePort, NodeProcess } from '@lumi/test-support/server-process';
import { root, serverEntry } from '../lib/build-stale.mjs';
import { LumiApi } from '../lib/lumi-api.mjs';
import { watchLog } from './server-log.mjs';
import { DATABASE_URL, EVENTS, PASSWORD, SQLITE } from './settings.mjs';

export const scratchDir = mkdtempSync(path.join(os.tmpdir(), 'lumi-bench-'));
const scratchDatabases = [];
const children = new Set();
const fakes = new Set();

export async function cleanUp() {
  for (const child of children) await child.stop('SIGTERM', 15_000);
  for (const fake of fakes) await fake.close();
  rmSync(scratchDir, { recursive: true, force: true });
  for (const name of scratchDatabases.splice(0)) {
    await withPostgres(DATABASE_URL, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    );
  }
}

export async function withPostgres(url, run) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database beside DATABASE_URL's (the role needs CREATEDB); dropped by cleanUp(). */
export async function scratchPostgres(purpose) {
  const name = `lumi_bench_${purpose}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await withPostgres(DATABASE_URL, (client) => client.query(`CREATE DATABASE "${name}"`));
  scratchDatabases.push(name);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * `run(label, serverEnv)` on SQLite in the scratch directory `name` (unless BENCH_SQLITE=skip), then, when
 * DATABASE_URL is set, on a scratch PostgreSQL database; returns what each run returned.
 */
export async function onEachDatabase(name, run) {
  const results = SQLITE ? [await run('SQLite', { DATA_DIR: path.join(scratchDir, name) })] : [];
  if (DATABASE_URL) results.push(await run('PostgreSQL', { DATABASE_URL: await scratchPostgres(name) }));
  return results;
}

/**
 * The built server on a free port with the given database; resolves once it answers. With `logs`, its
 * stdout is read at LOG_LEVEL=info and `server.logEntry(msg)` waits for a log line with that message.
 */
export async function launch(env, script, { logs = false } = {}) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = await NodeProcess.start(script ?? serverEntry, {
    healthUrl: `${baseUrl}/api/health`,
    // Otherwise the server's own stdout (the first-admin notice) is not part of the figures.
    stdio: ['ignore', logs ? 'pipe' : 'ignore', 'inherit'],
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: logs ? 'info' : 'warn',
      LUMI_ADMIN_USERNAME: 'admin',
      LUMI_ADMIN_PASSWORD: PASSWORD,
      DATABASE_URL: '',
      // Also with PostgreSQL: the generated signing key must not land in the real ./data.
      DATA_DIR: path.join(scratchDir, 'server'),
      ...env,
    },
  });
  children.add(server);
  const launched = Object.assign(server, { api: new LumiApi(baseUrl), baseUrl });
  if (logs) launched.logEntry = watchLog(server);
  return launched;
}

export async function shut(server) {
  children.delete(server);
  await server.stop('SIGTERM', 15_000);
}

/** `run(server)` on a server launched with `env`, which is stopped however `run` ends. */
export async function withServer(env, run) {
  const server = await launch(env);
  try {
    return await run(server);
  } finally {
    await shut(server);
  }
}

/** `run(server, { token, key })` on a server launched with `env`, signed in as the admin with a new API key. */
export function withServerKey(env, keyName, scopes, run) {
  return withServer(env, async (server) => {
    const token = await server.api.signIn('admin', PASSWORD);
    const { key } = await server.api.createApiKey(token, keyName, scopes);
    return run(server, { token, key });
  });
}

/**
 * Runs a generator of scripts/bench (TypeScript, through tsx) that loads events into a scratch database:
 * load-llm-calls.ts (events and rollups) by default.
 */
export async function load(env, generator = 'load-llm-calls.ts') {
  const handle = await NodeProcess.start(path.join(root, 'scripts/bench', generator), {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { BENCH_EVENTS: String(EVENTS), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(handle);
  let output = '';
  handle.child.stdout.on('data', (chunk) => (output += chunk));
  const code = await handle.exited;
  children.delete(handle);
  if (code !== 0) throw new Error(`The generator failed (exit code ${code}); see above.`);
  return JSON.parse(output.trim().split('\n').at(-1));
}

/** A fake Bot API (@lumi/test-support/fake-bot-api), closed by closeFake() or else by cleanUp(). */
export async function startFake(options) {
  const fake = await FakeBotApi.start(options);
  fakes.add(fake);
  return fake;
}

export async function closeFake(fake) {
  fakes.delete(fake);
  await fake.close();
}
