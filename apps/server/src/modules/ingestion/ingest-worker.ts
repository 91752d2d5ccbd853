import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/connection.js';
import { ingestBatch } from './ingest-batch.js';
import type { IngestAnswer, IngestJob, IngestWorkerData } from './ingest-writer.js';

/**
 * The ingest worker (ingest-writer.ts): checks and stores batches through a connection of its own to the
 * server's database, one transaction per batch, so the server's event loop never waits for them. On
 * PostgreSQL a few connections let batches that arrive together be stored side by side.
 */
const INGEST_POOL_SIZE = 4;
const { database, timezone } = workerData as IngestWorkerData;
const { db } = openDatabase({ ...database, poolSize: INGEST_POOL_SIZE, lockWait: 'block' });

parentPort?.on('message', (job: IngestJob | 'close') => {
  if (job === 'close') {
    void db.destroy().then(() => parentPort?.close());
    return;
  }
  ingestBatch(db, job.raw, job.now, timezone, job.source).then(
    (result) => parentPort?.postMessage({ id: job.id, result } satisfies IngestAnswer),
    (error: unknown) =>
      parentPort?.postMessage({
        id: job.id,
        failure: error instanceof Error ? error.message : String(error),
      } satisfies IngestAnswer),
  );
});
