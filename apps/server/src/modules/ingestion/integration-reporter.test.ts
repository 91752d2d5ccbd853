import type { IngestResult } from '@lumi/contract';
import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../../lib/errors.js';
import { IntegrationReporter } from './integration-reporter.js';
import type { IngestionService } from './ingestion.service.js';

const NOW = Date.parse('2026-11-20T12:30:00.000Z');
const STORED: IngestResult = { accepted: 2, duplicates: 0, rejected: [], budgets: [] };

describe('IntegrationReporter', () => {
  it('keeps the calls for the next flush when ingestion answers 429, and stores each once', async () => {
    const batches: unknown[][] = [];
    let busy = true;
    const ingestion = {
      ingest: (raw: unknown[]) => {
        if (busy) return Promise.reject(new TooManyRequestsError('busy', 1));
        batches.push(raw);
        return Promise.resolve(STORED);
      },
    } as unknown as IngestionService;
    const warnings: string[] = [];
    const reporter = new IntegrationReporter(ingestion, () => NOW, {
      warn: (_, message) => warnings.push(message),
    });
    reporter.report('telegram', { ok: true, latencyMs: 12.4, error: null });
    await reporter.flush();
    reporter.report('telegram', { ok: false, latencyMs: 30, error: 'Bad Request' });
    busy = false;
    await reporter.flush();
    await reporter.flush();
    expect(warnings).toEqual([]);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject([
      { type: 'integration_call', service_name: 'telegram', status: 'success', latency_ms: 12 },
      { type: 'integration_call', service_name: 'telegram', status: 'error', error: 'Bad Request' },
    ]);
  });
});
