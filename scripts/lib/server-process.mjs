// Runs the built server (apps/server/dist/server.js, as `npm start` does) in a child process and waits until
// it answers, for the demo and the benchmark.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { serverEntry } from './build-stale.mjs';

/** Resolves when host:port can be listened on, rejects with a readable message when it is taken. */
export function checkPortFree(port, host) {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} is in use (is \`npm start\` running?). Stop it or choose another PORT.`)
          : error,
      ),
    );
    probe.listen({ port, host }, () => probe.close(() => resolve()));
  });
}

/** A TCP port the system reports free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a Node script (the server by default) with extra environment variables and waits until
 * `${baseUrl}/api/health` answers 200. Rejects when the child exits first or after `timeoutMs`.
 * Returns the child and `exited`, a promise of its exit code.
 */
export async function startServer({
  env,
  baseUrl,
  script = serverEntry,
  stdio = 'inherit',
  timeoutMs = 60_000,
  healthPath = '/api/health',
}) {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio });
  let exitCode = null;
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exitCode = code ?? (signal ? 1 : 0);
      resolve(exitCode);
    });
  });
  const deadline = Date.now() + timeoutMs;
  while (exitCode === null) {
    try {
      const response = await fetch(`${baseUrl}${healthPath}`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return { child, exited };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`The server did not answer at ${baseUrl} within ${timeoutMs / 1000} s`);
    }
    await sleep(200);
  }
  throw new Error(`The server exited with code ${exitCode} before it answered; see its output above.`);
}

/** Asks a child to stop (SIGTERM or the given signal), and kills it when it has not exited in time. */
export async function stopServer({ child, exited }, signal = 'SIGTERM', graceMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  const code = await exited;
  clearTimeout(timer);
  return code;
}
