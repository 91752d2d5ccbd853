import type { IntegrationStatus } from '@lumi/contract';
import { TooManyRequestsError } from '../../lib/errors.js';
import { isoTime, type Clock } from '../../lib/time.js';
import type { IngestionService } from './ingestion.service.js';

interface Logger {
  warn(details: object, message: string): void;
}

/** How often Lumi's own calls (a send to Telegram) are stored, in one batch. */
const FLUSH_MS = 1000;

/**
 * Lumi's own calls to outside services, reported to the integrations panel as the bot's are: collected and
 * ingested once a second as `integration_call` events, so a busy sender costs one small batch a second,
 * not a transaction per message.
 */
export class IntegrationReporter {
  private pending: {
    type: 'integration_call';
    ts: string;
    service_name: string;
    status: IntegrationStatus;
    latency_ms: number;
    error?: string;
  }[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ingestion: IngestionService,
    private readonly now: Clock,
    private readonly log: Logger,
  ) {}

  report(serviceName: string, call: { ok: boolean; latencyMs: number; error: string | null }): void {
    this.pending.push({
      type: 'integration_call',
      ts: isoTime(this.now()),
      service_name: serviceName,
      status: call.ok ? 'success' : 'error',
      latency_ms: Math.round(call.latencyMs),
      ...(call.error !== null && { error: call.error.slice(0, 500) }),
    });
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** Stores what was reported so far. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      await this.ingestion.ingest(batch);
    } catch (error) {
      if (error instanceof TooManyRequestsError) {
        // Ingestion is busy with the bot's batches: these calls go with the next flush.
        this.pending = [...batch, ...this.pending];
        this.schedule();
        return;
      }
      this.log.warn({ err: error, calls: batch.length }, 'could not store Lumi’s own integration calls');
    }
  }
}
