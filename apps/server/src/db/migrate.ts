import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle, DialectName } from './connection.js';
import { foundation } from './migrations/20261122090000-foundation.js';
import { configItems } from './migrations/20261122110000-config-items.js';
import { telemetry } from './migrations/20261122120000-telemetry.js';
import { messaging } from './migrations/20261122130000-messaging.js';
import { refreshTokenRetirement } from './migrations/20261124090000-refresh-token-retirement.js';
import { templateSoftDelete } from './migrations/20261124200000-template-soft-delete.js';
import { auditResourceName } from './migrations/20261124210000-audit-resource-name.js';
import { cluster } from './migrations/20261125090000-cluster.js';
import { deliveries } from './migrations/20261125120000-deliveries.js';
import { schedules } from './migrations/20261125130000-schedules.js';
import { scheduleVariables } from './migrations/20261125140000-schedule-variables.js';
import { minuteRollups } from './migrations/20261126080000-minute-rollups.js';
import { alerts } from './migrations/20261126090000-alerts.js';
import { llmDimensions } from './migrations/20261127080000-llm-dimensions.js';
import { latencyHistograms } from './migrations/20261127090000-latency-histograms.js';
import { twoFactor } from './migrations/20261128090000-two-factor.js';
import { metricsCoarseRollups } from './migrations/20261128100000-metrics-coarse-rollups.js';
import { llmSpendReads } from './migrations/20261129090000-llm-spend-reads.js';
import { llmSpendLookups } from './migrations/20261130090000-llm-spend-lookups.js';
import { deliveryTopicNames } from './migrations/20261201090000-delivery-topic-names.js';
import { longMessages } from './migrations/20261202090000-long-messages.js';
import { feedback } from './migrations/20261202100000-feedback.js';
import { llmPricing } from './migrations/20261203090000-llm-pricing.js';
import { llmCallExplorer } from './migrations/20261204090000-llm-call-explorer.js';
import { llmCallContent } from './migrations/20261205090000-llm-call-content.js';
import { llmCallErrorIndex } from './migrations/20261206090000-llm-call-error-index.js';
import { limits } from './migrations/20261207090000-limits.js';
import { spendWritten } from './migrations/20261208090000-spend-written.js';
import { llmCallFailureFilters } from './migrations/20261209090000-llm-call-failure-filters.js';
import { limitGrantFunction } from './migrations/20261210090000-limit-grant-function.js';
import { llmCallSubjectLookups } from './migrations/20261211090000-llm-call-subject-lookups.js';

/** Migrations take the dialect, so the one place a type differs (auto-increment keys) is explicit. */
export type DialectMigration = (dialect: DialectName) => Migration;

const migrations: Record<string, DialectMigration> = {
  '20261122090000-foundation': foundation,
  '20261122110000-config-items': configItems,
  '20261122120000-telemetry': telemetry,
  '20261122130000-messaging': messaging,
  '20261124090000-refresh-token-retirement': refreshTokenRetirement,
  '20261124200000-template-soft-delete': templateSoftDelete,
  '20261124210000-audit-resource-name': auditResourceName,
  '20261125090000-cluster': cluster,
  '20261125120000-deliveries': deliveries,
  '20261125130000-schedules': schedules,
  '20261125140000-schedule-variables': scheduleVariables,
  '20261126080000-minute-rollups': minuteRollups,
  '20261126090000-alerts': alerts,
  '20261127080000-llm-dimensions': llmDimensions,
  '20261127090000-latency-histograms': latencyHistograms,
  '20261128090000-two-factor': twoFactor,
  '20261128100000-metrics-coarse-rollups': metricsCoarseRollups,
  '20261129090000-llm-spend-reads': llmSpendReads,
  '20261130090000-llm-spend-lookups': llmSpendLookups,
  '20261201090000-delivery-topic-names': deliveryTopicNames,
  '20261202090000-long-messages': longMessages,
  '20261202100000-feedback': feedback,
  '20261203090000-llm-pricing': llmPricing,
  '20261204090000-llm-call-explorer': llmCallExplorer,
  '20261205090000-llm-call-content': llmCallContent,
  '20261206090000-llm-call-error-index': llmCallErrorIndex,
  '20261207090000-limits': limits,
  '20261208090000-spend-written': spendWritten,
  '20261209090000-llm-call-failure-filters': llmCallFailureFilters,
  '20261210090000-limit-grant-function': limitGrantFunction,
  '20261211090000-llm-call-subject-lookups': llmCallSubjectLookups,
};

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(this.dialect)]));
  }
}

/** Migrates to the newest migration, or up to and including `target` (tests of a migration's data step). */
export async function migrateToLatest(handle: DatabaseHandle, target?: string): Promise<void> {
  const migrator = new Migrator({ db: handle.db, provider: new StaticMigrationProvider(handle.dialect) });
  const { error, results } = target ? await migrator.migrateTo(target) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
