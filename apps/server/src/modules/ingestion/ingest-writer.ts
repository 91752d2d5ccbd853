import type { Worker } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IngestResult } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { TooManyRequestsError } from '../../lib/errors.js';
import { startWorkerScript } from '../../lib/worker-script.js';
import type { LimitEventsPart, PartOutcome } from '../limits/limit-events.js';
import type { MirrorImage } from '../limits/usage-mirror.js';
import type { UsageSum } from '../telemetry-store/telemetry-store.js';
import { ingestBatch, LUMI_SOURCE, type IngestSource } from './ingest-batch.js';

/**
 * Checks and stores batches of telemetry events (ingest-batch.ts); `now` is when the batch arrived,
 * `source` the key that sent it and its content settings (LUMI_SOURCE for Lumi's own calls).
 */
export interface IngestWriter {
  ingest(raw: unknown[], now: number, source?: IngestSource): Promise<IngestResult>;
  /** Waits for the batches in hand, then lets go of what the writer holds. */
  close(): Promise<void>;
}

/**
 * Batches stored through the app's own connection, in the server's thread (tests, in-memory SQLite);
 * `onUsage` has the limits' usage each stored once it has committed.
 */
export class InProcessIngest implements IngestWriter {
  private inHand = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly timezone: string,
    private readonly onUsage?: (usage: UsageSum[]) => void,
  ) {}

  /** Whether a batch is being stored, its usage not yet handed to `onUsage`. */
  get storing(): boolean {
    return this.inHand > 0;
  }

  async ingest(raw: unknown[], now: number, source: IngestSource = LUMI_SOURCE): Promise<IngestResult> {
    this.inHand += 1;
    try {
      return await ingestBatch(this.db, raw, now, this.timezone, source, undefined, this.onUsage);
    } finally {
      this.inHand -= 1;
    }
  }

  async close(): Promise<void> {}
}

/** What the SQLite ingest writer and its worker (ingest-worker.ts) say to each other. */
export interface IngestJob {
  id: number;
  raw: unknown[];
  now: number;
  source: IngestSource;
}
/** A part of the allowance's write-behind (limits/limit-events.ts), stored by the worker too. */
export interface LimitEventsJob extends LimitEventsPart {
  id: number;
}
export type WorkerJob = IngestJob | LimitEventsJob | MirrorJob;
/** A job as the writer asks for it, before it is numbered. */
type JobBody = Omit<IngestJob, 'id'> | Omit<LimitEventsJob, 'id'> | Omit<MirrorJob, 'id'>;
export type IngestAnswer =
  | { id: number; result: IngestResult }
  /** A part of the write-behind stored, numbered as the writes behind are (IngestNews), or held for the next. */
  | { id: number; stored: true; number: number }
  | { id: number; held: true }
  | { id: number; image: MirrorImage }
  | { id: number; failure: string };
/** The allowance's mirror of usage made by the worker (limits/usage-mirror.ts), as of `now`. */
export interface MirrorJob {
  id: number;
  mirror: { now: number };
}
/**
 * What the worker tells the server: a batch's calls per chat and user and minute (on PostgreSQL with the
 * limits' usage it stored) and the limits' usage a write behind the batches stored (SQLite), numbered in the
 * order it wrote them with the allowance's counts (whose number comes with a part's answer), for the
 * allowance's mirror (limits/usage-mirror.ts); and, once at its start, how many calls' sums it recovered (-1
 * if that failed).
 */
export type IngestNews =
  | { usage: UsageSum[]; calls?: UsageSum[]; number: number }
  | { recovered: number }
  /** The worker ended without being asked (it is started again with the next write, or by `start`). */
  | { stopped: true };
/** Where the ingest worker connects: the SQLite file, or PostgreSQL (with a small pool of its own). */
export type IngestDatabase = { sqliteFile: string } | { databaseUrl: string };
export interface IngestWorkerData {
  database: IngestDatabase;
  timezone: string;
}

export const INGEST_WORKER_LIMITS = {
  /** Batches waiting for the worker beyond this answer 429, so a flood cannot queue without bound. */
  maxQueued: 64,
  /**
   * At shutdown, how long the batches in hand may take before they fail and the worker is stopped, so a
   * statement stuck behind a lock cannot keep the process from ending.
   */
  closeWaitMs: 30_000,
};

interface Pending {
  resolve: (result: IngestResult | MirrorImage | number | 'held') => void;
  reject: (error: Error) => void;
  what: string;
}

/**
 * Batches are checked and stored by a worker thread with its own connection to the database, so storing
 * them never holds the server's event loop, which answers the console meanwhile. On SQLite the writes
 * themselves are synchronous (better-sqlite3): a batch of 500 calls with their rollups held the loop about
 * 40 ms. On PostgreSQL the database works in its own process, but checking 500 events and building their
 * statements still cost the loop about 25 ms a batch. With SQLite in WAL mode the server's connection reads
 * while the worker writes; both begin their transactions IMMEDIATE (db/connection.ts), so two writers wait
 * for each other instead of failing. If the worker stops (it should not), the batches in hand fail with a
 * 500 and the next one starts a new worker: a batch's transaction either committed or left nothing, and a
 * retry with event ids counts what did commit as duplicates.
 */
export class IngestWorker implements IngestWriter {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  private readonly listeners: ((news: IngestNews) => void)[] = [];
  /** The allowance's write being sent, and the worker that holds parts of it, if one does. */
  private holding: { write: number; by: Worker | null } = { write: 0, by: null };

  constructor(
    private readonly data: IngestWorkerData,
    private readonly limits = INGEST_WORKER_LIMITS,
  ) {}

  /** Calls `listener` with what the worker tells unasked (IngestNews), from every worker started. */
  onNews(listener: (news: IngestNews) => void): void {
    this.listeners.push(listener);
  }

  /** Whether it still takes work: until `close`. */
  get open(): boolean {
    return !this.closed;
  }

  /** Starts the worker now rather than with the first batch, so that it recovers what a stop left. */
  start(): void {
    if (!this.closed) this.ensureWorker();
  }

  ingest(raw: unknown[], now: number, source: IngestSource = LUMI_SOURCE): Promise<IngestResult> {
    if (this.closed) return Promise.reject(new Error('Ingestion has stopped: the server is shutting down'));
    if (this.pending.size >= this.limits.maxQueued) {
      return Promise.reject(
        new TooManyRequestsError(
          'Lumi is still storing earlier batches; send this one again in a moment.',
          1,
        ),
      );
    }
    return this.post({ raw, now, source }, 'the batch') as Promise<IngestResult>;
  }

  /**
   * Stores a part of the allowance's write-behind in the worker's thread (limits/limit-events.ts): on SQLite
   * its transaction would otherwise hold the event loop that answers the checks. What it stored is numbered
   * with the worker's other writes, for the allowance's mirror (limits/usage-mirror.ts). Never refused for
   * `maxQueued` (it comes once a second, not from clients), though it waits its turn behind the batches. On
   * SQLite the worker holds a write's parts until its last; a part after some it held fails if that worker
   * has stopped since, as they were lost with it.
   */
  async storeLimitEvents(part: LimitEventsPart): Promise<PartOutcome> {
    if (this.closed) throw new Error('The write-behind has stopped: the server is shutting down');
    if (this.holding.write !== part.write) this.holding = { write: part.write, by: null };
    const holding = this.holding;
    if (holding.by && holding.by !== this.worker) {
      throw new Error('The ingest worker stopped while it held the earlier parts of this write');
    }
    const answer = this.post(part, 'the allowance’s counts');
    const by = this.worker;
    const outcome = await answer;
    if (outcome !== 'held') return { number: outcome as number };
    holding.by = by;
    return 'held';
  }

  /**
   * The allowance's mirror of the month's usage and grants (limits/usage-mirror.ts), loaded by the worker in
   * one snapshot while it goes on storing batches: every write the mirror tracks that the worker told of
   * before it is in it, and those after wait for it and are told of after it (ingest-worker.ts). A million
   * chats take the worker seconds and the server's thread none of them.
   */
  async mirrorImage(now: number): Promise<MirrorImage> {
    if (this.closed) throw new Error('The ingest worker has stopped: the server is shutting down');
    return (await this.post({ mirror: { now } }, 'the allowance’s mirror')) as MirrorImage;
  }

  private post(job: JobBody, what: string) {
    const id = this.nextId++;
    return new Promise<IngestResult | MirrorImage | number | 'held'>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, what });
      this.ensureWorker().postMessage({ id, ...job } as WorkerJob);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const deadline = Date.now() + this.limits.closeWaitMs;
    while (this.pending.size > 0 && Date.now() < deadline) await sleep(10);
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    if (this.pending.size > 0) {
      const late = new Error('The ingest worker stopped before this was stored: the server is shutting down');
      for (const pending of this.pending.values()) pending.reject(late);
      this.pending.clear();
      await worker.terminate();
      return;
    }
    // The worker closes its connection and ends on its own, unless that takes past the deadline.
    worker.postMessage('close');
    const left = Math.max(0, deadline - Date.now());
    if ((await Promise.race([exited.then(() => true), sleep(left).then(() => false)])) === false) {
      await worker.terminate();
    }
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorkerScript(import.meta.url, 'ingest-worker', { workerData: this.data });
    // An idle worker never keeps the process alive.
    worker.unref();
    worker.on('message', (message: IngestAnswer | IngestNews) => {
      if ('id' in message) this.settle(message);
      else for (const listener of this.listeners) listener(message);
    });
    worker.on('error', (error) => this.stopped(worker, error));
    worker.on('exit', (code) =>
      this.stopped(worker, new Error(`The ingest worker exited with code ${code}`)),
    );
    this.worker = worker;
    return worker;
  }

  private settle(answer: IngestAnswer): void {
    const pending = this.pending.get(answer.id);
    if (!pending) return;
    this.pending.delete(answer.id);
    if ('failure' in answer) pending.reject(new Error(`Storing ${pending.what} failed: ${answer.failure}`));
    else if ('image' in answer) pending.resolve(answer.image);
    else if ('result' in answer) pending.resolve(answer.result);
    else if ('held' in answer) pending.resolve('held');
    else pending.resolve(answer.number);
  }

  /** The worker ended without being asked: what it had in hand fails; the next batch starts another. */
  private stopped(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    for (const listener of this.listeners) listener({ stopped: true });
  }
}
