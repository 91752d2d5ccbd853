import type { Executor } from '../../db/database.js';
import { insertEvents, type RawRow, type RawTable } from './events.repository.js';
import { insertFeedback, type FeedbackRow } from './feedback.repository.js';
import { upsertLatencies } from './latency.repository.js';
import {
  aggregateLimitUsage,
  aggregateRecentCalls,
  upsertLimitUsage,
  type UsageSum,
} from './limit-usage.repository.js';
import { insertContents, type ContentRow } from './llm-call-contents.repository.js';
import { aggregateLlmDimensions } from './llm-dimensions.js';
import { upsertDimensionSums } from './llm-dimensions.repository.js';
import type { BatchSpend } from './spend-buffer.js';
import { lastCallId } from './spend-written.repository.js';
import {
  aggregateCacheReports,
  aggregateErrors,
  aggregateIntegrationCalls,
  aggregateLlmCalls,
  type RollupGrain,
} from './rollup-aggregation.js';
import { upsertCache, upsertErrors, upsertIntegrations, upsertLlmUsage } from './rollups.repository.js';

/** A raw event's row as ingestion hands it over; its client id (null: the bot sent none) finds duplicates. */
export type EventRow<T extends RawTable> = RawRow<T> & { client_id: string | null };

/** One batch's events as the rows of their tables (ingestion checked and shaped them). */
export interface EventRows {
  llm: EventRow<'llm_calls'>[];
  /** The content of calls whose key captures it, each named by its call's content_id. */
  contents: ContentRow[];
  integrations: EventRow<'integration_calls'>[];
  cache: EventRow<'cache_reports'>[];
  errors: EventRow<'bot_errors'>[];
  heartbeats: EventRow<'heartbeats'>[];
  market: EventRow<'market_data_reports'>[];
  feedback: FeedbackRow[];
}

const GRAINS: RollupGrain[] = ['hour', 'minute'];

/** Client ids in order, events without one last: concurrent retries then lock ids in the same order. */
function byClientId<T extends { client_id: string | null }>(rows: T[]): T[] {
  return rows.sort((a, b) =>
    a.client_id === b.client_id
      ? 0
      : a.client_id === null
        ? 1
        : b.client_id === null
          ? -1
          : a.client_id < b.client_id
            ? -1
            : 1,
  );
}

/**
 * What storeEvents stored, the limits' usage it added (written, or left in `spend`), and the spend it left for
 * the caller to write (spend-buffer.ts).
 */
export interface StoredEvents {
  stored: number;
  usage: UsageSum[];
  /** The calls per chat and user and minute (aggregateRecentCalls). */
  calls: UsageSum[];
  spend: BatchSpend | null;
}

/**
 * Stores a batch's events in the ingest transaction `trx` (docs/bot-developers/ingestion.md, "Reporting
 * events"): inserts the rows, skipping those whose client id and time are stored already, then rolls up
 * those actually stored (hourly and minute rollups, latency histograms, dimension rollups, the limits'
 * usage). Counts how many were stored. With `spend` 'deferred' the chats' and users' daily spend and the
 * limits' usage are not written but handed back, for the SQLite ingest worker to write behind
 * (spend-buffer.ts). Takes the transaction and the rows and nothing else, so it runs in the server's thread
 * and in the ingest worker alike.
 */
export async function storeEvents(
  trx: Executor,
  rows: EventRows,
  spend: 'inline' | 'deferred' = 'inline',
): Promise<StoredEvents> {
  let stored = 0;
  const insert = async <T extends RawTable>(table: T, batch: EventRow<T>[]) => {
    if (batch.length === 0) return batch;
    const result = await insertEvents(trx, table, byClientId(batch));
    stored += result.stored;
    return batch.filter((row) => row.client_id === null || result.storedIds.has(row.client_id));
  };
  const storedLlm = await insert('llm_calls', rows.llm);
  // Only the content of calls actually stored: a duplicate's content is the first copy's.
  const kept = new Set(storedLlm.map((row) => row.content_id));
  await insertContents(
    trx,
    rows.contents.filter((row) => kept.has(row.id)),
  );
  const storedIntegrations = await insert('integration_calls', rows.integrations);
  const storedCache = await insert('cache_reports', rows.cache);
  const storedErrors = await insert('bot_errors', rows.errors);
  for (const grain of GRAINS) {
    await upsertLlmUsage(trx, grain, aggregateLlmCalls(storedLlm, grain));
    await upsertIntegrations(trx, grain, aggregateIntegrationCalls(storedIntegrations, grain));
    await upsertCache(trx, grain, aggregateCacheReports(storedCache, grain));
    await upsertErrors(trx, grain, aggregateErrors(storedErrors, grain));
  }
  await upsertLatencies(trx, storedLlm, storedIntegrations);
  const dimensions = aggregateLlmDimensions(storedLlm);
  await upsertDimensionSums(trx, dimensions, spend);
  const usage = aggregateLimitUsage(storedLlm);
  if (spend === 'inline') await upsertLimitUsage(trx, usage);
  await insert('heartbeats', rows.heartbeats);
  await insert('market_data_reports', rows.market);
  stored += await insertFeedback(trx, rows.feedback);
  const calls = aggregateRecentCalls(storedLlm);
  if (spend === 'inline') return { stored, usage, calls, spend: null };
  const { chats, users } = dimensions;
  return {
    stored,
    usage,
    calls,
    spend: { sums: { chats, users }, usage, lastCallId: await lastCallId(trx) },
  };
}
