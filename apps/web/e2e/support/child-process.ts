// Runs the repository's Node scripts (the demo, the built server) as child processes for specs that need a
// server of their own beside the suite's shared one.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const DEMO_SCRIPT = path.join(root, 'scripts/demo.mjs');
export const SERVER_SCRIPT = path.join(root, 'apps/server/dist/server.js');

export interface ChildRun {
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** SIGTERM, then SIGKILL when it has not exited within `graceMs`; resolves with its exit code. */
  stop: (graceMs?: number) => Promise<number | null>;
}

/** Starts `node <script>` from the repository root with the given environment on top of this one. */
export function runScript(script: string, env: Record<string, string>): ChildRun {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // Either would point the demo or the server at PostgreSQL; these runs keep to SQLite in their DATA_DIR.
  delete childEnv.DATABASE_URL;
  delete childEnv.DEMO_DATABASE_URL;
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: Buffer) => (output += chunk.toString());
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  return {
    output: () => output,
    async stop(graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A TCP port the system reports free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
