import SQLite from 'better-sqlite3';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase, sessionClients } from '../../db/connection.js';
import { recoverSpend, SpendBuffer } from '../telemetry-store/telemetry-store.js';
import { storeLimitEvents } from '../limits/limit-events.js';
import { UsageMirror, type MirrorImage } from '../limits/usage-mirror.js';
import { ingestBatch } from './ingest-batch.js';
import type {
  IngestAnswer,
  IngestJob,
  IngestNews,
  IngestWorkerData,
  LimitEventsJob,
  WorkerJob,
} from './ingest-writer.js';

/**
 * The ingest worker (ingest-writer.ts): checks and stores batches through a connection of its own to the
 * server's database, one transaction per batch, so the server's event loop never waits for them. On
 * PostgreSQL a few connections let batches that arrive together be stored side by side. On SQLite the
 * chats' and users' daily spend is written behind the batches (telemetry-store/spend-buffer.ts): before
 * answering a batch when no other is in hand nor arrives within NEXT_BATCH_WAIT_MS, so a bot that sends and
 * then reads sees its figures, and otherwise at most a second later; the spend of calls a stop left
 * unwritten is added before the first batch.
 * It also stores the allowance's write-behind (limits/limit-events.ts): on SQLite one transaction a write,
 * on PostgreSQL one a part.
 */
const INGEST_POOL_SIZE = 4;
/**
 * How long the last batch in hand waits for another before its sums are written and it is answered. A bot
 * that keeps two batches in flight sends the next one as soon as the other is answered, which reaches this
 * thread a few milliseconds after the batch in hand is stored: without the wait, nearly every other batch
 * wrote the sums held, about a quarter of the thread's time (docs/benchmarks.md, "Ingestion").
 */
const NEXT_BATCH_WAIT_MS = 20;
/** Rows of the allowance's mirror loaded between two turns of this thread (about 50 ms of them). */
const LOAD_ROWS_A_TURN = 25_000;
const { database, timezone } = workerData as IngestWorkerData;
const { db, dialect } = openDatabase({ ...database, poolSize: INGEST_POOL_SIZE, lockWait: 'block' });
const spend = dialect === 'sqlite' ? new SpendBuffer() : undefined;
const ready = spend ? recoverSpend(db) : Promise.resolve(0);
// The server's mirror of the limits' usage loads once what a stop left unwritten is stored (or failed to be).
void ready.then(
  (recovered) => parentPort?.postMessage({ recovered } satisfies IngestNews),
  () => parentPort?.postMessage({ recovered: -1 } satisfies IngestNews),
);
let inHand = 0;
/**
 * SQLite: the parts of the allowance's write held until its last comes, then stored with it in one
 * transaction (limits/limit-events.ts, LimitEventsPart). A part of another write lets go of those held for an
 * earlier one, whose last never came: the server counts their rows again.
 */
let heldParts: LimitEventsJob[] = [];
/**
 * The writes told to the server so far (IngestNews), and how many are under way: the allowance's mirror is
 * loaded only when none is, so it covers a write exactly when the write was told before it.
 */
let written = 0;
let writing = 0;
/**
 * The load of the allowance's mirror under way, if one is: on SQLite the sums behind the batches and the
 * allowance's counts wait for it; the batches, and on PostgreSQL every write, only for the moment it takes
 * its snapshot (`snapshotting`).
 */
let loadingMirror: Promise<void> | null = null;
let snapshotting: Promise<void> | null = null;

/**
 * Runs a write the allowance's mirror tracks: counted while under way, and `next` numbers what it tells once
 * committed; it starts only once a load's snapshot is taken (snapshotQuietly).
 */
async function tracked<T>(write: (next: () => number) => Promise<T>): Promise<T> {
  while (snapshotting) await snapshotting;
  writing += 1;
  try {
    return await write(() => (written += 1));
  } finally {
    writing -= 1;
  }
}
/** Called when a batch arrives, for the one waiting for another (nextBatchWithin). */
let onArrival: (() => void) | null = null;

async function store(job: IngestJob): Promise<IngestAnswer> {
  await ready;
  // The batch tells of its calls once committed; on PostgreSQL of its usage too, which SQLite writes behind.
  const stored = tracked(async (next) => ({
    id: job.id,
    result: await ingestBatch(db, job.raw, job.now, timezone, job.source, spend, (usage, calls) =>
      parentPort?.postMessage({ usage, calls, number: next() } satisfies IngestNews),
    ),
  }));
  if (!spend) return stored;
  try {
    return await stored;
  } finally {
    // Also after a batch that failed: the sums of those before it are written once no batch is in hand.
    await writeBehind(spend);
  }
}

/**
 * Writes the sums held unless another batch is in hand, or arrives within NEXT_BATCH_WAIT_MS, and they are
 * not yet due. Batches posted while this one was stored may still wait in the thread's port, as storing
 * yields to promise callbacks and only now and then to the event loop: one turn of it lets them in, so they
 * count as in hand.
 */
async function writeBehind(buffer: SpendBuffer): Promise<void> {
  await nextTurn();
  const alone = inHand === 1 && buffer.held && !(await nextBatchWithin(NEXT_BATCH_WAIT_MS));
  // The batch is stored whatever becomes of the write behind it: sums that fail to be written are kept for
  // the next try, and a start adds any a stop left unwritten.
  if (alone || buffer.due) await writeHeld(buffer);
}

/**
 * Writes the sums held and tells the server of them, numbered; not while the allowance's mirror loads (it
 * holds what was written before it and hears of what is written after), but once it has.
 */
async function writeHeld(buffer: SpendBuffer): Promise<void> {
  if (loadingMirror) return;
  writing += 1;
  try {
    const usage = await buffer.flush(db).catch(() => null);
    if (usage) parentPort?.postMessage({ usage, number: (written += 1) } satisfies IngestNews);
  } finally {
    writing -= 1;
  }
}

/** Whether another batch arrives within `ms`. */
function nextBatchWithin(ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      onArrival = null;
      resolve(false);
    }, ms);
    onArrival = () => {
      clearTimeout(timer);
      onArrival = null;
      resolve(true);
    };
  });
}

/**
 * Runs `take`, which starts the snapshot a load of the allowance's mirror reads, once no write it tracks (the
 * batches, the sums behind them, the allowance's counts, each told of once committed) is under way, and
 * keeps any from starting until it has; resolves to what `take` made and the number of the last write told,
 * which the snapshot covers.
 */
async function snapshotQuietly<T>(take: () => T | Promise<T>): Promise<{ taken: T; covered: number }> {
  let open!: () => void;
  snapshotting = new Promise((resolve) => (open = resolve));
  try {
    while (writing > 0) await sleep(1);
    const taken = await take();
    return { taken, covered: written };
  } finally {
    snapshotting = null;
    open();
  }
}

/**
 * The allowance's mirror as of `now`, with the chats' and users' calls of the current minute, read in one
 * snapshot (snapshotQuietly); the batches go on being stored between its parts, and are told of numbered
 * after the writes it covers (on SQLite the sums behind them and the allowance's counts wait for it:
 * writeHeld, the counts' jobs).
 */
async function mirrorImage(now: number): Promise<MirrorImage> {
  await ready.catch(() => undefined);
  if (!('sqliteFile' in database)) return mirrorImagePostgres(now);
  const mirror = new UsageMirror(timezone, true);
  const loader = mirror.loader(now);
  // A connection of its own, whose one statement holds one snapshot while this thread goes on storing
  // batches between its parts (WAL: a reader never waits for the writer, nor it for a reader).
  const reader = new SQLite(database.sqliteFile, { readonly: true });
  let rows: IterableIterator<unknown[]> | undefined;
  try {
    const statement = reader.prepare(loader.query).raw(true);
    // The statement's snapshot starts with its first row.
    const { taken: first, covered } = await snapshotQuietly(() => {
      rows = statement.iterate(...loader.parameters) as IterableIterator<unknown[]>;
      return rows.next();
    });
    let read = 0;
    for (let row = first; !row.done; row = rows!.next()) {
      loader.add(row.value);
      read += 1;
      if (read % LOAD_ROWS_A_TURN === 0) await nextTurn();
    }
    loader.finish(covered);
    return mirror.image();
  } finally {
    // Ends the statement should a row fail.
    rows?.return?.();
    reader.close();
  }
}

/** A query's `?` placeholders as PostgreSQL's `$1`, `$2`, … */
function numbered(query: string): string {
  let n = 0;
  return query.replace(/\?/g, () => `$${(n += 1)}`);
}

/**
 * PostgreSQL: the allowance's mirror as of `now`, read through a cursor in one REPEATABLE READ transaction
 * of a session of its own, whose snapshot is its first statement's (snapshotQuietly).
 */
async function mirrorImagePostgres(now: number): Promise<MirrorImage> {
  const mirror = new UsageMirror(timezone, true);
  const loader = mirror.loader(now);
  const client = sessionClients(db)!({
    application_name: 'lumi allowance mirror',
    keepAlive: true,
    connectionTimeoutMillis: 10_000,
    query_timeout: 60_000,
  });
  // A session that fails makes its statement fail, which fails the load.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { covered } = await snapshotQuietly(async () => {
      await client.query('begin isolation level repeatable read read only');
      // The snapshot is the first statement's (postgresql.org/docs/current/transaction-iso.html).
      await client.query('select 1');
    });
    await client.query(
      `declare lumi_mirror no scroll cursor for ${numbered(loader.query)}`,
      loader.parameters,
    );
    for (;;) {
      const { rows } = await client.query<unknown[]>({
        text: `fetch ${LOAD_ROWS_A_TURN} from lumi_mirror`,
        rowMode: 'array',
      });
      for (const row of rows) loader.add(row);
      if (rows.length < LOAD_ROWS_A_TURN) break;
    }
    await client.query('commit');
    loader.finish(covered);
    return mirror.image();
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Loads the allowance's mirror and sends it, its arrays moved rather than copied (IngestAnswer); or the
 * failure. Never rejects.
 */
async function sendMirror(id: number, now: number): Promise<void> {
  try {
    const image = await mirrorImage(now);
    const { chats, users } = image.places;
    parentPort?.postMessage({ id, image } satisfies IngestAnswer, [
      image.slot.buffer as ArrayBuffer,
      image.entry.buffer as ArrayBuffer,
      chats.ids.buffer as ArrayBuffer,
      chats.at.buffer as ArrayBuffer,
      users.ids.buffer as ArrayBuffer,
      users.at.buffer as ArrayBuffer,
    ]);
  } catch (error) {
    await answer(Promise.reject(error instanceof Error ? error : new Error(String(error))), id);
  }
}

function answer(stored: Promise<IngestAnswer>, id: number) {
  return stored
    .catch((error: unknown): IngestAnswer => ({
      id,
      failure: error instanceof Error ? error.message : String(error),
    }))
    .then((answer) => parentPort?.postMessage(answer satisfies IngestAnswer));
}

parentPort?.on('message', (job: WorkerJob | 'close') => {
  if (job === 'close') {
    void ready
      .then(() => spend?.flush(db))
      .catch(() => undefined)
      .then(() => db.destroy())
      .then(() => parentPort?.close());
    return;
  }
  if ('mirror' in job) {
    // One load at a time, in the order asked for.
    const loading = (loadingMirror ?? Promise.resolve())
      .then(() => sendMirror(job.id, job.mirror.now))
      .finally(() => {
        if (loadingMirror !== loading) return;
        loadingMirror = null;
        if (spend?.held && inHand === 0) void writeHeld(spend);
      });
    loadingMirror = loading;
    return;
  }
  if ('grants' in job) {
    if (dialect === 'sqlite' && !job.last) {
      if (heldParts[0]?.write !== job.write) heldParts = [];
      heldParts.push(job);
      parentPort?.postMessage({ id: job.id, held: true } satisfies IngestAnswer);
      return;
    }
    const parts = heldParts[0]?.write === job.write ? [...heldParts, job] : [job];
    heldParts = [];
    void (async () => {
      // SQLite: the allowance's counts wait for a load of its mirror under way (see writeHeld).
      if (spend) while (loadingMirror) await loadingMirror.catch(() => undefined);
      await tracked(async (next) => {
        let stored: IngestAnswer;
        try {
          await storeLimitEvents(
            db,
            parts.flatMap((part) => part.grants),
            parts.flatMap((part) => part.denials),
          );
          // Numbered and sent at once, so no write numbered after it is told of first.
          stored = { id: job.id, stored: true, number: next() };
        } catch (error) {
          stored = { id: job.id, failure: error instanceof Error ? error.message : String(error) };
        }
        parentPort?.postMessage(stored satisfies IngestAnswer);
      });
    })();
    return;
  }
  inHand += 1;
  onArrival?.();
  void answer(
    store(job).finally(() => (inHand -= 1)),
    job.id,
  );
});
