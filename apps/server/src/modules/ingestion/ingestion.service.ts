import type { IngestResult } from '@lumi/contract';
import { AppError } from '../../lib/errors.js';
import type { Clock } from '../../lib/time.js';
import { reachesSettledHours } from '../telemetry-store/telemetry-store.js';
import type { IngestSource } from './ingest-batch.js';
import type { IngestWriter } from './ingest-writer.js';

/**
 * Whether a batch may have changed settled hours (`reachesSettledHours`) with an event of it, stored or not.
 * Read from the batch as sent, so it errs only towards clearing more.
 */
function reachesBack(raw: unknown[], now: number): boolean {
  return raw.some((entry) => {
    const ts = typeof entry === 'object' && entry !== null ? (entry as { ts?: unknown }).ts : undefined;
    return typeof ts === 'string' && reachesSettledHours(Date.parse(ts), now);
  });
}

/** Ingestion (docs/bot-developers/ingestion.md): a bot's batches, its OTLP spans and Lumi's own calls. */
export class IngestionService {
  constructor(
    /** Where batches are checked and stored (ingest-writer.ts). */
    private readonly writer: IngestWriter,
    private readonly now: Clock,
    /**
     * Called after stored telemetry changed: every instance forgets its dashboard answers, and with
     * `history` their settled hours' parts too (modules/telemetry-store/settled-hours.ts).
     */
    private readonly telemetryChanged: (history?: boolean) => Promise<void>,
  ) {}

  /**
   * Checks and stores one batch (ingest-batch.ts) through the writer: in this thread, or in the SQLite
   * ingest worker. Once it has committed, every instance forgets its dashboard answers, so the next read
   * anywhere sees the events.
   */
  async ingest(raw: unknown[], source?: IngestSource): Promise<IngestResult> {
    const now = this.now();
    let result: IngestResult;
    try {
      result = await this.writer.ingest(raw, now, source);
    } catch (error) {
      // The worker may have stopped after its commit, before it answered: a retry would then find every
      // event a duplicate and clear nothing, so the answers are forgotten now. A refusal stored nothing.
      if (!(error instanceof AppError)) await this.telemetryChanged(reachesBack(raw, now));
      throw error;
    }
    if (result.accepted > 0) await this.telemetryChanged(reachesBack(raw, now));
    return result;
  }

  /**
   * Waits for the batches being stored and stops the writer; at shutdown, once nothing is left to report
   * (server.ts). Ingestion refuses batches after it.
   */
  close(): Promise<void> {
    return this.writer.close();
  }
}
