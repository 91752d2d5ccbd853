import type { Worker } from 'node:worker_threads';
import type { ParseMode, RenderResult } from '@lumi/contract';
import { TooManyRequestsError } from '../../../lib/errors.js';
import { startWorkerScript } from '../../../lib/worker-script.js';
import { RenderLimitError } from './render-budget.js';
import { WORKER_READY, type RenderAnswer, type RenderJob } from './render-protocol.js';

/**
 * Runs renderings in a worker thread (hardening issue, item 3), so that no template, however it is built,
 * holds the server's event loop: compiling a large template alone takes Handlebars a quarter of a second.
 * Inside the worker the RenderBudget stops loops and oversized output early; a job that still runs past
 * `jobTimeoutMs` (a pathological compile) has its worker terminated and replaced.
 */
export const RENDER_POOL_LIMITS = {
  /** Wall time of one job in the worker. */
  jobTimeoutMs: 1_000,
  /** Jobs waiting beyond this answer 429: a flood of renderings cannot queue without bound. */
  maxQueued: 100,
};
export type RenderPoolLimits = typeof RENDER_POOL_LIMITS;

const OUT_OF_MEMORY = 'Rendering needed too much memory and was stopped; send less data.';

interface Pending {
  job: RenderJob;
  resolve: (result: RenderResult) => void;
  reject: (error: Error) => void;
}

export class RenderPool {
  private worker: Worker | null = null;
  private current: (Pending & { timer: NodeJS.Timeout | null }) | null = null;
  private ready = false;
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
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private next(): void {
    if (this.current) return;
    const pending = this.queue.shift();
    if (!pending) return;
    const worker = this.ensureWorker();
    this.current = { ...pending, timer: null };
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
    current.timer = setTimeout(() => {
      void this.restart(
        new RenderLimitError(
          `Rendering took longer than ${this.limits.jobTimeoutMs / 1000} s and was stopped; simplify the template or send less data.`,
        ),
      );
    }, this.limits.jobTimeoutMs);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorkerScript(import.meta.url, 'render-worker', {
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    // An idle worker never keeps the process alive.
    worker.unref();
    worker.on('message', (answer: RenderAnswer | typeof WORKER_READY) => {
      if (answer !== WORKER_READY) return this.settle(answer);
      if (this.worker !== worker) return;
      this.ready = true;
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
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
    this.next();
  }
}

/** The process's renderer: one worker serves every app in the process (and exits with it). */
export const sharedRenderPool = new RenderPool();
