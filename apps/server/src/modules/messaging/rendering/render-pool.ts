import type { Worker } from 'node:worker_threads';
import type { ParseMode, RenderResult } from '@lumi/contract';
import { TooManyRequestsError } from '../../../lib/errors.js';
import { threadCpuReader, type ThreadCpuReader } from '../../../lib/thread-cpu.js';
import { startWorkerScript } from '../../../lib/worker-script.js';
import { RenderBusyError, RenderLimitError } from './render-budget.js';
import type { RenderAnswer, RenderJob, WorkerReady } from './render-protocol.js';

/**
 * Runs renderings in a worker thread (docs/bot-developers/deliveries.md, "Rendering limits"), so that no
 * template, however it is built, holds the server's event loop: compiling a large template alone takes
 * Handlebars a quarter of a second. Inside the worker the RenderBudget stops loops and oversized output
 * early; a job that still works past `jobTimeoutMs` of the worker thread's CPU time (a pathological compile)
 * has its worker terminated and replaced (422). A job that is only slow because the machine is busy is given
 * up after `busyTimeoutMs` of wall time as a temporary refusal (503), never as the template's fault.
 */
export const RENDER_POOL_LIMITS = {
  /** CPU time of one job in the worker (wall time where the platform has no per-thread CPU clock). */
  jobTimeoutMs: 1_000,
  /** Wall time of one job after which it is given up for load. */
  busyTimeoutMs: 10_000,
  /**
   * Jobs waiting beyond this answer 429: a flood of renderings cannot queue without bound. A render takes
   * well under a millisecond, so a burst of a few hundred sends waits briefly rather than being refused.
   */
  maxQueued: 500,
};
export type RenderPoolLimits = typeof RENDER_POOL_LIMITS;

const OUT_OF_MEMORY = 'Rendering needed too much memory and was stopped; send less data.';

/** When the job in hand started, by the wall clock and by the worker's CPU clock (null without one). */
interface Started {
  wall: number;
  cpu: number | null;
}

interface Pending {
  job: RenderJob;
  resolve: (result: RenderResult) => void;
  reject: (error: Error) => void;
}

export class RenderPool {
  private worker: Worker | null = null;
  private current: (Pending & { timer: NodeJS.Timeout | null; started: Started | null }) | null = null;
  private ready = false;
  /** The worker thread's CPU clock, once it said where it is. */
  private cpu: ThreadCpuReader | null = null;
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(private readonly limits: RenderPoolLimits = RENDER_POOL_LIMITS) {}

  render(
    content: string,
    parseMode: ParseMode,
    data: Record<string, unknown>,
    now: number,
  ): Promise<RenderResult> {
    if (this.queue.length >= this.limits.maxQueued) {
      return Promise.reject(
        new TooManyRequestsError(
          'The message renderer is busy with other requests; try again in a moment.',
          1,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { id: this.nextId++, content, parseMode, data, now }, resolve, reject });
      this.next();
    });
  }

  /** Stops the worker, failing what it had not finished; later renderings start a new one. */
  async close(): Promise<void> {
    const stopped = new Error('The renderer was stopped');
    for (const pending of this.queue.splice(0)) pending.reject(stopped);
    if (this.current) {
      clearTimeout(this.current.timer ?? undefined);
      this.current.reject(stopped);
      this.current = null;
    }
    await this.stopWorker();
  }

  private async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.cpu?.close();
    this.cpu = null;
    await worker?.terminate();
  }

  private next(): void {
    if (this.current) return;
    const pending = this.queue.shift();
    if (!pending) return;
    const worker = this.ensureWorker();
    this.current = { ...pending, timer: null, started: null };
    if (this.ready) this.startTimer();
    worker.postMessage(pending.job);
  }

  /**
   * The job's time starts once the worker has loaded its code and says it is ready, so a worker's start
   * (slow on a busy machine, or with tsx compiling the source in tests) is not taken for a rendering that
   * runs too long.
   */
  private startTimer(): void {
    const current = this.current;
    if (!current || current.timer) return;
    current.started = { wall: performance.now(), cpu: this.cpu?.read() ?? null };
    this.armTimer(current);
  }

  /**
   * At each `jobTimeoutMs`: a job that used that much of the worker's CPU is stopped as too costly; one
   * that did not is slowed by the machine's load, and waits on until `busyTimeoutMs` has passed.
   */
  private armTimer(current: NonNullable<RenderPool['current']>): void {
    current.timer = setTimeout(() => {
      if (this.current !== current || !current.started) return;
      const { wall, cpu } = current.started;
      const used = cpu === null || !this.cpu ? performance.now() - wall : this.cpu.read() - cpu;
      if (used > this.limits.jobTimeoutMs) {
        void this.restart(
          new RenderLimitError(
            `Rendering took longer than ${this.limits.jobTimeoutMs / 1000} s and was stopped; simplify the template or send less data.`,
          ),
        );
      } else if (performance.now() - wall > this.limits.busyTimeoutMs) {
        void this.restart(new RenderBusyError());
      } else {
        this.armTimer(current);
      }
    }, this.limits.jobTimeoutMs);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorkerScript(import.meta.url, 'render-worker', {
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    // An idle worker never keeps the process alive.
    worker.unref();
    worker.on('message', (answer: RenderAnswer | WorkerReady) => {
      if (!('ready' in answer)) return this.settle(answer);
      if (this.worker !== worker) return;
      this.ready = true;
      this.cpu = threadCpuReader(answer.cpuFile);
      this.startTimer();
    });
    // A worker only fails on its own when a rendering exhausts its memory (the job's own errors come back
    // as answers).
    worker.on('error', () => void this.restart(new RenderLimitError(OUT_OF_MEMORY)));
    worker.on('exit', () => {
      if (this.worker === worker) void this.restart(new Error('The render worker stopped'));
    });
    this.worker = worker;
    this.ready = false;
    return worker;
  }

  private settle(answer: RenderAnswer): void {
    const current = this.current;
    if (!current || current.job.id !== answer.id) return;
    clearTimeout(current.timer ?? undefined);
    this.current = null;
    if ('result' in answer) current.resolve(answer.result);
    else if ('limit' in answer) current.reject(new RenderLimitError(answer.limit));
    else if ('busy' in answer) current.reject(new RenderBusyError(answer.busy));
    else current.reject(new Error(`Rendering failed: ${answer.failure}`));
    this.next();
  }

  /** Fails the job in hand with `error`, replaces the worker and goes on with the queue. */
  private async restart(error: Error): Promise<void> {
    const current = this.current;
    this.current = null;
    if (current) {
      clearTimeout(current.timer ?? undefined);
      current.reject(error);
    }
    await this.stopWorker();
    this.next();
  }
}

/** The process's renderer: one worker serves every app in the process (and exits with it). */
export const sharedRenderPool = new RenderPool();
