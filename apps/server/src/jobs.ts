import { DELIVERY_LIMITS } from '@lumi/contract';
import type { JobDefinition } from './modules/cluster/job-scheduler.js';
import { ScheduleData } from './modules/messaging/schedules/schedule-data.js';
import type { Services } from './services.js';

/** LUMI_HOUSEKEEPING_SECONDS by default. */
export const HOUSEKEEPING_SECONDS_DEFAULT = 600;
/** Raw telemetry past RETENTION_DAYS and rollups past 400 days are pruned this often. */
const RETENTION_MS = 60 * 60 * 1000;
/** LUMI_SCHEDULE_CATCHUP_MINUTES by default: a run missed by less than this is sent late, once. */
export const SCHEDULE_CATCHUP_MINUTES_DEFAULT = 60;
/** Schedules are checked this often, so a run goes out within this much of its time. */
const SCHEDULES_MS = 15_000;
/** ALERT_EVALUATION_SECONDS by default: every alert rule is evaluated this often. */
export const ALERT_EVALUATION_SECONDS_DEFAULT = 30;
/** Due webhook retries (and Telegram notifications a pass could not hand on) are tried this often. */
const ALERT_NOTIFICATIONS_MS = 5_000;

interface Logger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * The periodic jobs of the cluster; each runs on one instance at a time (modules/cluster/job-scheduler.ts):
 * - housekeeping: ended sessions and old sign-in failures go; PostgreSQL's event partitions are created
 *   ahead; finished days' chat and user rollups are bounded to their top 1,000 and an other row; finished
 *   hours' latency histograms are folded into one row per hour and per day and key;
 * - retention: raw events past RETENTION_DAYS, deliveries past LUMI_DELIVERY_RETENTION_DAYS (never one
 *   still queued or sending), rollups past 400 days, alert history past 400 days and
 *   settled alert notifications past 90 days go, and the limits' usage, grants and denials past 32 days;
 * - schedules: every due run of a schedule becomes one delivery (docs/bot-developers/deliveries.md,
 *   "Schedules");
 * - alerts: every enabled alert rule is evaluated, and what it changed is recorded and notified
 *   (docs/bot-developers/alerts.md, "States");
 * - alert-notifications: notifications due again (a webhook's retries) are tried.
 */
export function clusterJobs(
  services: Services,
  options: {
    housekeepingSeconds: number;
    log: Logger;
    /** LUMI_SCHEDULE_CATCHUP_MINUTES. */
    scheduleCatchupMinutes: number;
    /** LUMI_TIMEZONE: the days of the schedules' data sources ("yesterday", "today"). */
    timezone: string;
    /** "Now" of the data sources: the services' clock. */
    now: () => number;
    /** ALERT_EVALUATION_SECONDS. */
    alertEvaluationSeconds?: number;
    /** LUMI_DELIVERY_RETENTION_DAYS. */
    deliveryRetentionDays?: number;
  },
): JobDefinition[] {
  const scheduleData = new ScheduleData(services.metrics, services.budgets, options.now, options.timezone);
  return [
    {
      name: 'housekeeping',
      intervalMs: options.housekeepingSeconds * 1000,
      run: async () => {
        await services.auth.prune();
        // Partitions first: a day must never start without its partition, whatever fails after.
        const { housekeeping } = services.telemetryStore;
        const partitionsCreated = await housekeeping.maintainPartitions();
        return {
          partitionsCreated,
          ...(await housekeeping.compactFinishedDays()),
          ...(await housekeeping.foldFinishedHours()),
        };
      },
    },
    {
      name: 'retention',
      intervalMs: RETENTION_MS,
      run: async () => {
        const started = performance.now();
        const removed = await services.telemetryStore.retention.prune();
        const ms = Math.round(performance.now() - started);
        options.log.info({ ...removed, ms }, 'telemetry retention: pruned old events and rollups');
        const alerts = await services.alerts.history.prune();
        const limits = await services.limits.prune();
        const deliveries = await services.messaging.deliveries.prune(
          options.deliveryRetentionDays ?? DELIVERY_LIMITS.retentionDaysDefault,
        );
        return {
          ...removed,
          deliveries,
          alert_history: alerts.history,
          alert_notifications: alerts.notifications,
          limit_grants: limits,
        };
      },
    },
    {
      name: 'schedules',
      intervalMs: SCHEDULES_MS,
      run: () =>
        services.messaging.schedules.runDue({
          resolve: scheduleData.resolve,
          catchupMs: options.scheduleCatchupMinutes * 60_000,
          log: options.log,
        }),
    },
    {
      name: 'alerts',
      intervalMs: (options.alertEvaluationSeconds ?? ALERT_EVALUATION_SECONDS_DEFAULT) * 1000,
      run: () => services.alerts.evaluator.runPass(),
    },
    {
      name: 'alert-notifications',
      intervalMs: ALERT_NOTIFICATIONS_MS,
      run: () => services.alerts.notifier.sendDue(),
    },
  ];
}
