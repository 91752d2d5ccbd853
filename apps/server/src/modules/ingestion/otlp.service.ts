import { INGEST_LIMITS } from '@lumi/contract';
import { genAiCalls, partialSuccess, spanDetail } from './otlp-spans.js';
import {
  decodeTraceRequest,
  inflate,
  OtlpMalformedError,
  type OtlpContentCoding,
  type OtlpEncoding,
} from './otlp-wire.js';
import type { IngestionService } from './ingestion.service.js';

export type OtlpExportResult =
  | { ok: true; partial: { rejectedSpans: number; errorMessage: string } | null }
  | { ok: false; reason: string };

/**
 * OTLP/HTTP trace export (docs/bot-developers/otlp.md): GenAI spans become llm_call events stored by the
 * ingestion API's own path, so they are validated, deduplicated and rolled up exactly like a bot's JSON.
 */
export class OtlpTraceService {
  constructor(private readonly ingestion: IngestionService) {}

  async export(body: Buffer, encoding: OtlpEncoding, coding: OtlpContentCoding): Promise<OtlpExportResult> {
    let request;
    try {
      request = decodeTraceRequest(await inflate(body, coding, INGEST_LIMITS.maxBodyBytes), encoding);
    } catch (error) {
      if (error instanceof OtlpMalformedError) return { ok: false, reason: error.message };
      throw error;
    }
    const { calls, rejected } = genAiCalls(request);
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
      const result = await this.ingestion.ingest(calls.map((call) => call.event));
      for (const { index, detail } of result.rejected) {
        rejected.push({ span: calls[index]?.span ?? 'without an id', detail: spanDetail(detail) });
      }
    }
    return { ok: true, partial: partialSuccess(genAiSpans, rejected) };
  }
}
