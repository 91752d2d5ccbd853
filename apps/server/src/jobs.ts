import type { JobDefinition } from './modules/cluster/jobs.js';
import type { Services } from './services.js';

/** LUMI_HOUSEKEEPING_SECONDS by default. */
export const HOUSEKEEPING_SECONDS_DEFAULT = 600;
/** Raw telemetry past RETENTION_DAYS and rollups past 400 days are pruned this often. */
const RETENTION_MS = 60 * 60 * 1000;

interface Logger {
  info(details: object, message: string): void;
}

/**
 * The periodic jobs of the cluster; each runs on one instance at a time (modules/cluster/jobs.ts):
 * - housekeeping: ended sessions and old sign-in failures go; PostgreSQL's event partitions are created
 *   ahead;
 * - retention: raw events past RETENTION_DAYS and rollups past 400 days go.
 */
export function clusterJobs(
  services: Services,
  options: { housekeepingSeconds: number; log: Logger },
): JobDefinition[] {
  return [
    {
      name: 'housekeeping',
      intervalMs: options.housekeepingSeconds * 1000,
      run: async () => {
        await services.auth.prune();
        return { partitionsCreated: await services.telemetry.maintainPartitions() };
      },
    },
    {
      name: 'retention',
      intervalMs: RETENTION_MS,
      run: async () => {
        const started = performance.now();
        const removed = await services.telemetry.prune();
        const ms = Math.round(performance.now() - started);
        options.log.info({ ...removed, ms }, 'telemetry retention: pruned old events and rollups');
        return removed;
      },
    },
  ];
}
