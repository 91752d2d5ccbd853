import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import {
  aggregateLimitUsage,
  mergeLimitUsage,
  upsertLimitUsage,
  type UsageSum,
} from './limit-usage.repository.js';
import { aggregateLlmDimensions, type SpendSum } from './llm-dimensions.js';
import { upsertSpendSums, type SpendSums } from './llm-dimensions.repository.js';
import { sortedValues } from './rollup-aggregation.js';
import { callsAfter, spendWrittenThrough } from './spend-written.repository.js';

/**
 * The chats' and users' daily spend and the limits' hourly usage (limit_usage), written behind the ingest
 * transactions on SQLite (docs/benchmarks.md, "Ingestion") with the lookups of the calls' chats and users
 * (llm-call-lookups.repository.ts). A batch touches a page of each of those tables and their indexes for
 * nearly every chat and user in it, so the SQLite ingest worker keeps the batches' sums here and writes
 * them together, once the worker has nothing else in hand or they are FLUSH_AFTER_MS old:
 * the figures a dashboard shows, and the usage a limit reads, are at most that late while batches keep
 * coming, and current as soon as they stop (docs/operators/limits.md, "What counts"). llm_spend_written
 * records the last call the stored sums and lookups cover; a start first sums the calls after it
 * (recoverSpend), so a crash between a batch and the write of its sums loses nothing.
 */

/** How long sums wait at most while batches keep coming. */
export const FLUSH_AFTER_MS = 1_000;

/** The spend of one batch, and the last call it covers (ids grow with each stored call on SQLite). */
export interface BatchSpend {
  sums: SpendSums;
  usage: UsageSum[];
  lastCallId: number;
}

const SEP = '\u0000';

function merge(into: Map<string, SpendSum>, sums: SpendSum[]) {
  for (const sum of sums) {
    const key = sum.day + SEP + sum.key;
    const held = into.get(key);
    if (!held) {
      into.set(key, { ...sum });
      continue;
    }
    held.requests = Number(held.requests) + Number(sum.requests);
    held.tokens = Number(held.tokens) + Number(sum.tokens);
    held.cost_usd += sum.cost_usd;
  }
}

export class SpendBuffer {
  private chats = new Map<string, SpendSum>();
  private users = new Map<string, SpendSum>();
  private usage = new Map<string, UsageSum>();
  private lastCallId = 0;
  /** When the oldest sum held arrived (ms); 0 when none is held. */
  private since = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** A committed batch's spend; batches are added in the order they committed. */
  add(spend: BatchSpend): void {
    const empty = spend.sums.chats.length === 0 && spend.sums.users.length === 0 && spend.usage.length === 0;
    if (empty && this.since === 0) return;
    if (this.since === 0) this.since = this.now();
    merge(this.chats, spend.sums.chats);
    merge(this.users, spend.sums.users);
    mergeLimitUsage(this.usage, spend.usage);
    this.lastCallId = Math.max(this.lastCallId, spend.lastCallId);
  }

  /** Whether any sums are held. */
  get held(): boolean {
    return this.since !== 0;
  }

  /** Whether the sums held have waited long enough to be written while batches keep coming. */
  get due(): boolean {
    return this.since !== 0 && this.now() - this.since >= FLUSH_AFTER_MS;
  }

  /**
   * Writes the sums held in one transaction. They leave the buffer as the write starts, so a batch that
   * commits meanwhile (its transaction held the connection this one waits for) adds to the next write, and
   * go back into it when the write fails, to be tried again. Resolves to the limits' usage written, or null
   * when nothing was held.
   */
  async flush(db: Kysely<Database>): Promise<UsageSum[] | null> {
    if (this.since === 0) return null;
    const { chats, users, since } = this;
    const held = this.usage;
    const lastCallId = this.lastCallId;
    this.chats = new Map();
    this.users = new Map();
    this.usage = new Map();
    this.since = 0;
    const usage = sortedValues(held);
    try {
      await db.transaction().execute(async (trx) => {
        await upsertSpendSums(trx, { chats: sortedValues(chats), users: sortedValues(users) }, lastCallId);
        await upsertLimitUsage(trx, usage);
      });
    } catch (error) {
      merge(this.chats, [...chats.values()]);
      merge(this.users, [...users.values()]);
      mergeLimitUsage(this.usage, usage);
      this.since = this.since === 0 ? since : Math.min(this.since, since);
      throw error;
    }
    return usage;
  }
}

/** Calls summed per recovery transaction, so a long backlog never makes one huge transaction. */
const RECOVERY_CHUNK = 5_000;

/**
 * Adds the spend and the lookups of the calls stored after the last call the sums cover (left by a stop
 * between a batch and the write of its sums); returns how many calls that was. Run before the worker takes
 * batches.
 */
export async function recoverSpend(db: Kysely<Database>): Promise<number> {
  let recovered = 0;
  for (;;) {
    const done = await db.transaction().execute(async (trx) => {
      const rows = await callsAfter(trx, await spendWrittenThrough(trx), RECOVERY_CHUNK);
      if (rows.length === 0) return true;
      const { chats, users } = aggregateLlmDimensions(rows);
      await upsertSpendSums(trx, { chats, users }, Number(rows.at(-1)!.id));
      await upsertLimitUsage(trx, aggregateLimitUsage(rows));
      recovered += rows.length;
      return rows.length < RECOVERY_CHUNK;
    });
    if (done) return recovered;
  }
}
