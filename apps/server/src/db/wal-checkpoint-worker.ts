import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { WalCheckpointData } from './wal-checkpointer.js';

/**
 * The checkpoint thread (wal-checkpointer.ts): a connection of its own that runs a PASSIVE checkpoint every
 * `intervalMs`. PASSIVE copies what no reader still needs and never waits, so a busy moment only leaves
 * frames for the next round.
 */
const { file, intervalMs } = workerData as WalCheckpointData;
const sqlite = new SQLite(file);

function checkpoint(): void {
  try {
    sqlite.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // SQLITE_BUSY: another connection is checkpointing (a writer's fallback); the next round goes on.
  }
}

const timer = setInterval(checkpoint, intervalMs);
parentPort?.on('message', (message: 'close') => {
  if (message !== 'close') return;
  clearInterval(timer);
  checkpoint();
  sqlite.close();
  parentPort?.close();
});
