import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from './connection.js';
import { WalCheckpointer } from './wal-checkpointer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A database file with 2 MB written after its creation: in the WAL, not yet in the file. */
async function writtenDatabase() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lumi-wal-'));
  dirs.push(dir);
  const file = path.join(dir, 'lumi.sqlite');
  const { db } = openDatabase({ sqliteFile: file });
  await sql`create table t (body text)`.execute(db);
  for (let i = 0; i < 64; i += 1) await sql`insert into t values (${'x'.repeat(32_768)})`.execute(db);
  return { db, file };
}

describe('WalCheckpointer', () => {
  it('copies what the writers left in the WAL into the file, outside their commits', async () => {
    const { db, file } = await writtenDatabase();
    // Below the writers' own threshold, SQLite left every page in the WAL.
    expect(statSync(file).size).toBeLessThan(1024 * 1024);
    const checkpointer = WalCheckpointer.start(file, 10);
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(2 * 1024 * 1024), {
      timeout: 10_000,
      interval: 20,
    });
    await checkpointer.close();
    await db.destroy();
  });

  it('checkpoints once more when it is closed', async () => {
    const { db, file } = await writtenDatabase();
    const checkpointer = WalCheckpointer.start(file, 60_000);
    await checkpointer.close();
    expect(statSync(file).size).toBeGreaterThan(2 * 1024 * 1024);
    const [row] = (await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows;
    expect(row?.n).toBe(64);
    await db.destroy();
  });
});
