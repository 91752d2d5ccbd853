import { LLM_CONTENT_LIMITS } from '@lumi/contract';

/** The telemetry rules an operator can tune (docs/operators/configuration.md); config.ts reads them from the environment. */
export interface TelemetrySettings {
  /** IANA zone whose calendar days the budgets and the daily LLM usage follow (LUMI_TIMEZONE). */
  timezone: string;
  /** A heartbeat older than this means the bot is not reporting (HEARTBEAT_STALE_SECONDS). */
  heartbeatStaleSeconds: number;
  /** The market feed is 'current' while its last candle is at most this old (MARKET_DATA_FRESH_SECONDS). */
  marketDataFreshSeconds: number;
  /** Raw events are pruned after this many days; hourly rollups are kept 400 days (RETENTION_DAYS). */
  retentionDays: number;
  /** The content of calls is removed after this many days (LUMI_CONTENT_RETENTION_DAYS). */
  contentRetentionDays: number;
}

export const TELEMETRY_DEFAULTS: TelemetrySettings = {
  timezone: 'UTC',
  heartbeatStaleSeconds: 120,
  marketDataFreshSeconds: 300,
  retentionDays: 30,
  contentRetentionDays: LLM_CONTENT_LIMITS.retentionDaysDefault,
};
