import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/time.js';
import type { TtlCache } from '../../lib/ttl-cache.js';
import type { TelemetrySettings } from '../telemetry-store/telemetry.settings.js';

/**
 * What a dashboard service reads with (docs/benchmarks.md, "What keeps a dashboard request cheap"): the
 * rollups, the clock, the telemetry settings, the answers cached until stored telemetry changes, and the
 * settled hours' rows, kept until a change reaches back before the current hour (services.ts).
 */
export abstract class DashboardService {
  constructor(
    protected readonly db: Kysely<Database>,
    protected readonly now: Clock,
    protected readonly settings: TelemetrySettings,
    protected readonly cache: TtlCache,
    protected readonly history: TtlCache,
  ) {}
}
