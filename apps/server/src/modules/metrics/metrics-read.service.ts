import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import * as store from '../telemetry-store/telemetry-store.js';

/** Sums of LLM calls of one provider and model. */
export interface LlmModelSums {
  provider: string;
  model: string;
  requests: number;
  failed: number;
  costUsd: number;
  latencyMsTotal: number;
  tokens: number;
}

/**
 * The figures other modules read from the stored telemetry, uncached and as stored: the alert rules'
 * conditions (modules/alerts/alert-data.ts, which keeps each read for one evaluation pass). Windows are
 * [from, to) in bucket keys: minute keys for the minute rollups, hour keys for the hourly ones. Each method
 * is one query.
 */
export class MetricsReadService {
  constructor(private readonly db: Kysely<Database>) {}

  /** The newest heartbeat by event time, or null when the bot never sent one. */
  async latestHeartbeat(): Promise<{ ts: string; telegram_status: string } | null> {
    const row = await store.latestHeartbeat(this.db);
    return row ? { ts: row.ts, telegram_status: row.telegram_status } : null;
  }

  /** The newest market-data report by event time, or null when there was none. */
  async latestMarketData(): Promise<{
    ts: string;
    last_candle_time: string;
    websocket_status: string;
  } | null> {
    const row = await store.latestMarketData(this.db);
    return row
      ? { ts: row.ts, last_candle_time: row.last_candle_time, websocket_status: row.websocket_status }
      : null;
  }

  /** LLM sums per provider and model, of the minute rollups or (for whole days) the hourly ones. */
  llmByModel(grain: 'minute' | 'hour', from: string, to: string): Promise<LlmModelSums[]> {
    return store.llmSumsByModel(this.db, grain, from, to);
  }

  /** Error events per source, of the minute rollups. */
  errorsBySource(from: string, to: string): Promise<{ source: string; errors: number }[]> {
    return store.errorsBySourceInMinutes(this.db, from, to);
  }

  /** Calls per integration and how many succeeded, of the minute rollups. */
  integrationCalls(
    from: string,
    to: string,
  ): Promise<{ serviceName: string; total: number; success: number }[]> {
    return store.integrationsInMinutes(this.db, from, to);
  }

  /** Cache hits and misses, of the minute rollups. */
  cacheLookups(from: string, to: string): Promise<{ hits: number; misses: number }> {
    return store.cacheInMinutes(this.db, from, to);
  }
}
