import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import { TooManyRequestsError } from '../../lib/errors.js';
import type { IngestWriter } from './ingest-writer.js';
import { TelemetryService } from './telemetry.service.js';
import type { TelemetrySettings } from './telemetry.settings.js';

const NOW = Date.parse('2026-11-20T12:30:00.000Z');
const late = [{ type: 'heartbeat', ts: '2026-11-20T09:00:00.000Z' }];
const live = [{ type: 'heartbeat', ts: '2026-11-20T12:29:00.000Z' }];

function serviceFailingWith(error: Error) {
  const cleared: (boolean | undefined)[] = [];
  const writer: IngestWriter = { ingest: () => Promise.reject(error), close: async () => {} };
  const service = new TelemetryService(
    {} as Kysely<Database>,
    writer,
    () => NOW,
    {} as TelemetrySettings,
    async (history) => {
      cleared.push(history);
    },
  );
  return { service, cleared };
}

describe('TelemetryService.ingest when the writer fails', () => {
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
