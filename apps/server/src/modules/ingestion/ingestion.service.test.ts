import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../../lib/errors.js';
import type { IngestWriter } from './ingest-writer.js';
import { IngestionService } from './ingestion.service.js';

const NOW = Date.parse('2026-11-20T12:30:00.000Z');
const late = [{ type: 'heartbeat', ts: '2026-11-20T09:00:00.000Z' }];
const live = [{ type: 'heartbeat', ts: '2026-11-20T12:29:00.000Z' }];

/** The service over a writer that stores with `ingest`, and the history flags of every clear it asked for. */
function serviceWith(ingest: IngestWriter['ingest'], now = NOW) {
  const cleared: (boolean | undefined)[] = [];
  const writer: IngestWriter = { ingest, close: async () => {} };
  const service = new IngestionService(
    writer,
    () => now,
    async (history) => {
      cleared.push(history);
    },
  );
  return { service, cleared };
}

const serviceFailingWith = (error: Error) => serviceWith(() => Promise.reject(error));

describe('IngestionService.ingest when the writer fails', () => {
  it('forgets the answers anyway, since the batch may have committed before the worker stopped', async () => {
    const { service, cleared } = serviceFailingWith(new Error('The ingest worker exited with code 1'));
    await expect(service.ingest(late)).rejects.toThrow(/exited/);
    await expect(service.ingest(live)).rejects.toThrow(/exited/);
    expect(cleared).toEqual([true, false]);
  });

  it('forgets nothing when the batch was refused, which stored nothing', async () => {
    const { service, cleared } = serviceFailingWith(new TooManyRequestsError('busy', 1));
    await expect(service.ingest(late)).rejects.toBeInstanceOf(TooManyRequestsError);
    expect(cleared).toEqual([]);
  });
});

describe('IngestionService.ingest and the settled hours', () => {
  const serviceAt = (now: number) =>
    serviceWith(
      async (events) => ({ accepted: events.length, duplicates: 0, rejected: [], budgets: [] }),
      now,
    );
  const at = (ts: string) => [{ type: 'heartbeat', ts }];

  it('keeps them when a batch at the hour turn carries the last seconds of the old hour', async () => {
    const { service, cleared } = serviceAt(Date.parse('2026-11-20T13:00:20.000Z'));
    await service.ingest(at('2026-11-20T12:59:55.000Z'));
    await service.ingest(at('2026-11-20T12:00:00.000Z'));
    expect(cleared).toEqual([false, false]);
  });

  it('forgets them for a call of an hour that is settled here or on an instance whose clock runs ahead', async () => {
    const { service, cleared } = serviceAt(Date.parse('2026-11-20T13:55:00.000Z'));
    // Settled here: hours before 12:00.
    await service.ingest(at('2026-11-20T11:59:59.000Z'));
    // 12:00 is settled on an instance whose clock already says 14:00 (within CLOCK_MARGIN_MS).
    await service.ingest(at('2026-11-20T12:30:00.000Z'));
    // The current hour never is.
    await service.ingest(at('2026-11-20T13:54:00.000Z'));
    expect(cleared).toEqual([true, true, false]);
  });
});
