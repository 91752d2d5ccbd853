// Runs a Node script (the server, built or through tsx, or the demo) in a child process for the tests, the
// end-to-end tests and the scripts: waits until it answers its health URL, keeps what it printed (and the
// JSON lines it logged) when its output is piped, and stops it with SIGKILL as the last resort.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The port `port` (0: one the system picks) once it could be listened on at `host` and closed again; false
 * when it is in use.
 */
function listensOn(port, host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    probe.listen({ port, host }, () => {
      const bound = probe.address().port;
      probe.close(() => resolve(bound));
    });
  });
}

/**
 * The lowest port outgoing connections take their local port from (Linux's ip_local_port_range), or null
 * where that cannot be read.
 */
function lowestEphemeralPort() {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : null;
  } catch {
    return null;
  }
}

/** The lowest port `freePort` picks from, above the well-known services' ports. */
const LOWEST_PICKED = 10_000;

/**
 * A TCP port free on 127.0.0.1 right now, for a child process to listen on. Picked at random below the
 * ephemeral range where that is known: a port the system hands out for `listen(0)` is an ephemeral one,
 * which any outgoing connection (a test's database client, say) may take as its local port in the moment
 * before the child listens, and the child then fails with EADDRINUSE.
 */
export async function freePort() {
  const low = lowestEphemeralPort();
  if (low !== null && low > LOWEST_PICKED + 1_000) {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const port = await listensOn(LOWEST_PICKED + Math.floor(Math.random() * (low - LOWEST_PICKED)));
      if (port) return port;
    }
  }
  return listensOn(0);
}

/** Resolves when host:port can be listened on, rejects with a readable message when it is taken. */
export async function checkPortFree(port, host) {
  if (!(await listensOn(port, host))) {
    throw new Error(`Port ${port} is in use (is \`npm start\` running?). Stop it or choose another PORT.`);
  }
}

export class NodeProcess {
  /** The JSON lines it logged (piped output only). */
  logs = [];
  #output = '';

  constructor(child, name, keepOutput) {
    this.child = child;
    this.name = name;
    /** Its exit code (1 when a signal ended it). */
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
    // With stdio of the caller's choice, its pipes are the caller's to read, from the first byte.
    if (!keepOutput) return;
    let partial = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => {
      this.#output += chunk;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        try {
          this.logs.push(JSON.parse(line));
        } catch {
          // Not a log line.
        }
      }
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk) => {
      this.#output += chunk;
    });
  }

  /**
   * Starts `node [...execArgv] script` with `env` on top of this process's environment (a variable set to
   * undefined is removed). With `healthUrl`, resolves once that answers 2xx and rejects when the process
   * exits first or after `timeoutMs`. `stdio` is 'pipe' by default: output() and logs keep what it printed.
   */
  static async start(script, options = {}) {
    const {
      name = script,
      cwd,
      execArgv = [],
      env = {},
      stdio = 'pipe',
      healthUrl,
      timeoutMs = 60_000,
    } = options;
    const childEnv = { ...process.env, ...env };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
    const child = spawn(process.execPath, [...execArgv, script], {
      cwd,
      env: childEnv,
      stdio: stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : stdio,
    });
    const started = new NodeProcess(child, name, stdio === 'pipe');
    if (!healthUrl) return started;
    const deadline = Date.now() + timeoutMs;
    while (started.running) {
      try {
        const response = await fetch(healthUrl, { signal: AbortSignal.timeout(2000) });
        if (response.ok) return started;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(
          `${name} did not answer at ${healthUrl} within ${timeoutMs / 1000} s${started.#told()}`,
        );
      }
      await sleep(100);
    }
    throw new Error(`${name} exited with code ${await started.exited} before it answered${started.#told()}`);
  }

  /** Everything it wrote to stdout and stderr so far (piped output only). */
  output() {
    return this.#output;
  }

  get running() {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends `signal` and waits for the exit, with SIGKILL after `graceMs`; resolves with the exit code. */
  async stop(signal = 'SIGTERM', graceMs = 20_000) {
    if (this.running) {
      this.child.kill(signal);
      const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    return this.exited;
  }

  #told() {
    return this.#output ? `:\n${this.#output}` : '; see its output above.';
  }
}
