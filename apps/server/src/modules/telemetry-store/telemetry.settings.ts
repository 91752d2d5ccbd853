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
}

export const TELEMETRY_DEFAULTS: TelemetrySettings = {
  timezone: 'UTC',
  heartbeatStaleSeconds: 120,
  marketDataFreshSeconds: 300,
  retentionDays: 30,
};
