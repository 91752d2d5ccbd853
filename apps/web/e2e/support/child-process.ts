// Runs the repository's Node scripts (the demo, the built server) as child processes for specs that need a
// server of their own beside the suite's shared one, through the shared launcher of @lumi/test-support.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, NodeProcess } from '@lumi/test-support/server-process';

export { freePort };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const DEMO_SCRIPT = path.join(root, 'scripts/demo.mjs');
export const SERVER_SCRIPT = path.join(root, 'apps/server/dist/server.js');
const OWN_SERVER_SCRIPT = path.join(root, 'apps/web/e2e/support/start-server.mjs');

export interface ChildRun {
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** SIGTERM, then SIGKILL when it has not exited within `graceMs`; resolves with its exit code. */
  stop: (graceMs?: number) => Promise<number | null>;
}

/**
 * Starts `node <script>` from the repository root with the given environment on top of this one; with
 * `healthUrl`, resolves once that answers 2xx (rejecting with the script's output after `timeoutMs`).
 */
export async function runScript(
  script: string,
  env: Record<string, string>,
  ready: { healthUrl?: string; timeoutMs?: number } = {},
): Promise<ChildRun> {
  const child = await NodeProcess.start(script, {
    cwd: root,
    // Either would point the demo or the server at PostgreSQL; these runs keep to SQLite in their DATA_DIR.
    env: { ...env, DATABASE_URL: undefined, DEMO_DATABASE_URL: undefined },
    ...ready,
  });
  return { output: () => child.output(), stop: (graceMs = 15_000) => child.stop('SIGTERM', graceMs) };
}

/**
 * A server set up as the shared one (support/start-server.mjs: the same admin, a throwaway data directory)
 * on a free port, for a spec whose assertions another spec's data must not reach.
 */
export async function startOwnServer(): Promise<ChildRun & { url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await runScript(
    OWN_SERVER_SCRIPT,
    { E2E_PORT: String(port) },
    { healthUrl: `${url}/api/ready`, timeoutMs: 60_000 },
  );
  return { ...server, url };
}
