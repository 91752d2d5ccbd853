import { INGEST_LIMITS } from '@lumi/contract';
import { IGNORED_REASONS } from './otlp-conventions.js';
import { partialSuccess, spanDetail, type IgnoredSpan as IgnoredSpanRow } from './otlp-answer.js';
import { genAiCalls } from './otlp-spans.js';
import {
  decodeTraceRequest,
  inflate,
  OtlpMalformedError,
  type OtlpContentCoding,
  type OtlpEncoding,
} from './otlp-wire.js';
import type { IgnoredSpans } from '@lumi/contract';
import type { Executor } from '../../db/database.js';
import { isoTime, type Clock } from '../../lib/time.js';
import { keepIgnoredSpans, latestIgnoredSpans } from './ignored-spans.repository.js';
import type { IngestSource } from './ingest-batch.js';
import type { IngestionService } from './ingestion.service.js';

/** At most this many spans of one export are kept as ignored (IGNORED_SPANS_KEPT per key in all). */
const KEPT_PER_EXPORT = 10;
const NOT_MODEL_CALL = IGNORED_REASONS.notModelCall;

export type OtlpExportResult =
  | { ok: true; partial: { rejectedSpans: number; errorMessage: string } | null }
  | { ok: false; reason: string };

/**
 * OTLP/HTTP trace export (docs/bot-developers/otlp.md): GenAI spans become llm_call events stored by the
 * ingestion API's own path, so they are validated, deduplicated and rolled up exactly like a bot's JSON.
 */
export class OtlpTraceService {
  constructor(
    private readonly ingestion: IngestionService,
    private readonly db: Executor,
    private readonly now: Clock,
  ) {}

  /** The latest spans of an API key's exports that were not stored, newest first. */
  async ignoredSpans(apiKeyId: number): Promise<IgnoredSpans> {
    return { spans: await latestIgnoredSpans(this.db, apiKeyId) };
  }

  async export(
    source: IngestSource,
    body: Buffer,
    encoding: OtlpEncoding,
    coding: OtlpContentCoding,
  ): Promise<OtlpExportResult> {
    let request;
    try {
      request = decodeTraceRequest(await inflate(body, coding, INGEST_LIMITS.maxBodyBytes), encoding);
    } catch (error) {
      if (error instanceof OtlpMalformedError) return { ok: false, reason: error.message };
      throw error;
    }
    const { calls, rejected, ignored } = genAiCalls(request, source.capture !== null);
    const genAiSpans = calls.length + rejected.length;
    if (genAiSpans > INGEST_LIMITS.maxEvents) {
      return {
        ok: false,
        reason:
          `At most ${INGEST_LIMITS.maxEvents.toLocaleString('en')} GenAI spans per request, not ` +
          `${genAiSpans.toLocaleString('en')}; lower the exporter's batch size (maxExportBatchSize)`,
      };
    }
    if (calls.length > 0) {
      const result = await this.ingestion.ingest(
        calls.map((call) => call.event),
        source,
      );
      for (const { index, detail } of result.rejected) {
        const call = calls[index];
        if (call)
          rejected.push({
            traceId: call.traceId,
            span: call.span,
            name: call.name,
            detail: spanDetail(detail, call.sources),
          });
      }
    }
    if (source.apiKeyId !== null)
      await this.keep(source.apiKeyId, [...rejected.map((r) => ({ ...r, reason: r.detail })), ...ignored]);
    return { ok: true, partial: partialSuccess(genAiSpans, rejected, ignored) };
  }

  /**
   * Keeps the first spans of an export that were not stored, model calls first (the ones a bot developer
   * looks for), so the console can say why nothing shows up.
   */
  private async keep(apiKeyId: number, spans: IgnoredSpanRow[]) {
    if (spans.length === 0) return;
    const receivedAt = isoTime(this.now());
    const first = [...spans]
      .sort((a, b) => Number(a.reason === NOT_MODEL_CALL) - Number(b.reason === NOT_MODEL_CALL))
      .slice(0, KEPT_PER_EXPORT);
    await keepIgnoredSpans(
      this.db,
      apiKeyId,
      first.map((s) => ({
        api_key_id: apiKeyId,
        received_at: receivedAt,
        trace_id: s.traceId,
        span_id: s.span,
        span_name: s.name.slice(0, 200),
        reason: s.reason.slice(0, 500),
      })),
    );
  }
}
