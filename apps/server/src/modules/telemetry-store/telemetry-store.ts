/**
 * The telemetry store's public face: what other modules may call, as a service is another module's. The
 * store owns the telemetry tables (raw events, feedback, the rollups and their minute twins, the latency
 * histograms, the dimension rollups) and all their SQL; its repositories stay private to it (ESLint refuses
 * an import of another module's repository). Its calls are functions that take the executor first, since
 * they run in the SQLite ingest worker and in other modules' transactions (the ingest batch's, a budget
 * change's) as well as on the app's connection. Retention and housekeeping are services of their own
 * (retention.service.ts, housekeeping.service.ts).
 */

// Writing: ingestion's one call, in its transaction (modules/ingestion/ingest-batch.ts).
export { storeEvents, type EventRow, type EventRows } from './event-store.js';
export { recoverSpend, SpendBuffer } from './spend-buffer.js';
export { findContent, type ContentRow } from './llm-call-contents.repository.js';

// Reading the latest reports (an index look-up on ts each, never a scan).
export { latestCacheReport, latestHeartbeat, latestMarketData } from './events.repository.js';

// Reading the hourly rollups (the dashboards, the budgets) and the minute ones (the alert rules).
export {
  cacheInMinutes,
  cacheTotals,
  errorCount,
  errorsBySourceInMinutes,
  geminiUsageByHourAndModel,
  integrationRows,
  integrationsInMinutes,
  llmSumsByModel,
  llmUsageByHourAndProvider,
  modelsSeen,
  usageByProvider,
} from './rollup-reads.repository.js';

// Reading the latency histograms.
export { latencySeries } from './latency.repository.js';
export {
  add,
  SEP,
  type LatencyKind,
  type LatencySeries,
  type SpanHistograms,
  type Spans,
} from './latency-histograms.js';

// Reading the dimension rollups: usage by feature, errors by type, the top chats and users.
export { errorsByType, featureUsage, requestsByModel } from './llm-dimension-reads.repository.js';
export { topSpenders, topSpendersSplit, type SettledSpenders } from './top-spenders.repository.js';
export { NO_FEATURE, OTHER_KEY, SPEND_KINDS, type SpendKind } from './llm-dimensions.js';

// Reading the calls themselves, page by page (the Calls tab).
export {
  llmCallById,
  llmCallsCount,
  llmCallsPage,
  type CallCursor,
  type CallsPage,
  type CallFilters,
  type LlmCallRow,
} from './llm-calls.repository.js';

// The usage the limits read (modules/limits): per chat, user and feature and hour, and the latest calls.
export {
  LIMIT_USAGE_KEEP_DAYS,
  readUsage,
  recentCalls,
  recentCallsNow,
  topRecentSubjects,
  topSubjects,
  limitUsageRows,
  limitUsageRowsNow,
  limitUsagePartsPostgres,
  type SubjectUsage,
  type UsagePartRow,
  type UsageSum,
} from './limit-usage.repository.js';

// Reading feedback, and the panels' exports page by page.
export { feedbackCounts } from './feedback.repository.js';
export {
  integrationsPage,
  spendRows,
  usageRows,
  type SpendKey,
  type UsageKey,
  type UsageRow,
} from './export-pages.repository.js';

// Which hours are settled: the dashboards keep those apart; ingestion and housekeeping tell when they change.
export { firstLiveDay, hourRowsSplit, reachesSettledHours, settledSplit } from './settled-hours.js';
