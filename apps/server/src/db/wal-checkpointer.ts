import type { Worker } from 'node:worker_threads';
import { startWorkerScript } from '../lib/worker-script.js';

/** What the checkpoint thread (wal-checkpoint-worker.ts) is started with. */
export interface WalCheckpointData {
  file: string;
  intervalMs: number;
}

/**
 * How often the checkpoint thread copies the WAL back into the SQLite file. A page written again within the
 * interval is copied once; the writers’ own fallback (WAL_FALLBACK_PAGES in connection.ts)
 * takes over only if this thread falls far behind.
 */
export const WAL_CHECKPOINT_INTERVAL_MS = 200;

/**
 * Checkpoints an embedded SQLite database from a thread of its own (https://sqlite.org/wal.html,
 * "Checkpointing"). Left to the writers, SQLite checkpoints inside the commit that crosses the WAL's
 * threshold: that commit then copies the pages back and syncs the file while the ingest worker, or the
 * server's event loop, waits. From this thread a PASSIVE checkpoint waits for no reader and no writer, and
 * a page that many batches wrote is copied once.
 */
export class WalCheckpointer {
  private constructor(private readonly worker: Worker) {}

  static start(file: string, intervalMs = WAL_CHECKPOINT_INTERVAL_MS): WalCheckpointer {
    const workerData: WalCheckpointData = { file, intervalMs };
    const worker = startWorkerScript(import.meta.url, 'wal-checkpoint-worker', { workerData });
    // It never keeps the process alive; if it stops, the writers' fallback threshold still checkpoints.
    worker.unref();
    worker.on('error', () => {});
    return new WalCheckpointer(worker);
  }

  /** Runs a last checkpoint and lets the thread end. */
  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.postMessage('close');
    await exited;
  }
}
