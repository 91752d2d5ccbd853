import type { ChildProcess, StdioOptions } from 'node:child_process';

/** A TCP port free on 127.0.0.1 right now, outside the ephemeral range where that is known. */
export function freePort(): Promise<number>;
/** Resolves when host:port can be listened on, rejects with a readable message when it is taken. */
export function checkPortFree(port: number, host: string): Promise<void>;

/** One JSON line the process logged. */
export interface LogLine {
  msg?: string;
  [key: string]: unknown;
}

export interface NodeProcessOptions {
  /** Names it in errors; the script by default. */
  name?: string;
  cwd?: string;
  /** Node's own options before the script, e.g. ['--import', 'tsx']. */
  execArgv?: string[];
  /** On top of this process's environment; a variable set to undefined is removed. */
  env?: Record<string, string | undefined>;
  /** 'pipe' (the default) keeps its output for output() and logs. */
  stdio?: 'pipe' | StdioOptions;
  /** Resolve once this answers 2xx; reject when the process exits first or after timeoutMs. */
  healthUrl?: string;
  timeoutMs?: number;
}

export class NodeProcess {
  static start(script: string, options?: NodeProcessOptions): Promise<NodeProcess>;
  private constructor();
  readonly child: ChildProcess;
  readonly name: string;
  /** Its exit code (1 when a signal ended it). */
  readonly exited: Promise<number>;
  /** The JSON lines it logged (piped output only). */
  readonly logs: LogLine[];
  readonly running: boolean;
  /** Everything it wrote to stdout and stderr so far (piped output only). */
  output(): string;
  /** Sends `signal` and waits for the exit, with SIGKILL after `graceMs` (20 s); resolves with the exit code. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number>;
}
