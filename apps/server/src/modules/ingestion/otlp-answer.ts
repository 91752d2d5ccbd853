import { OTLP_ATTRIBUTES } from './otlp-conventions.js';

/**
 * What an OTLP export is answered (docs/bot-developers/otlp.md, "The answer"): the spans that were
 * rejected or ignored, each named by its trace and span id, and why, in the span's own terms.
 */

/** Where a span stands: its trace and span id in hex, and its name. */
export interface SpanRef {
  traceId: string;
  /** The span id in hex, naming the span in a rejection message. */
  span: string;
  name: string;
}

export interface RejectedSpan extends SpanRef {
  detail: string;
}

/** A span of the export that was not stored, and why (docs/bot-developers/otlp.md, "Ignored spans"). */
export interface IgnoredSpan extends SpanRef {
  reason: string;
}

/** What a rejected llm_call field is called in the span that carried it. */
const SOURCE_OF_FIELD: Record<string, string> = {
  // A field the span left out is named by the GenAI conventions' current and older attribute.
  ...Object.fromEntries(
    Object.entries(OTLP_ATTRIBUTES).map(([field, keys]) => [field, keys.slice(0, 2).join(' or ')]),
  ),
  model: 'gen_ai.request.model or gen_ai.response.model',
  ts: 'start time',
  latency_ms: 'duration',
};

/**
 * The ingestion API's reason for refusing an event, in the span's terms: "input_tokens: …" becomes
 * "gen_ai.usage.input_tokens: …".
 */
export function spanDetail(detail: string, sources: Record<string, string> = {}): string {
  const colon = detail.indexOf(': ');
  const field = colon > 0 ? detail.slice(0, colon).split('.')[0] : undefined;
  const source = field === undefined ? undefined : (sources[field] ?? SOURCE_OF_FIELD[field]);
  return source === undefined ? detail : `${source}${detail.slice(colon)}`;
}

/** At most this many rejected spans are described in the partial success message. */
const MAX_DESCRIBED = 3;

function listed(described: string[], total: number): string {
  const more = total - described.length;
  return more > 0 ? `${described.join('; ')}; and ${more} more` : described.join('; ');
}

/**
 * OTLP's partial success, or null when every span was stored: the rejected spans' count, and a message
 * naming the first rejected spans and why, then how many spans were ignored and the first one's reason
 * (a warning when nothing was rejected, as OTLP allows).
 */
export function partialSuccess(
  genAiSpans: number,
  rejected: RejectedSpan[],
  ignored: IgnoredSpan[],
): { rejectedSpans: number; errorMessage: string } | null {
  if (rejected.length === 0 && ignored.length === 0) return null;
  const parts: string[] = [];
  if (rejected.length > 0) {
    const described = rejected.slice(0, MAX_DESCRIBED).map((r) => `span ${r.span}: ${r.detail}`);
    parts.push(
      `${rejected.length} of ${genAiSpans} GenAI spans rejected: ${listed(described, rejected.length)}`,
    );
  }
  if (ignored.length > 0) {
    const [firstIgnored] = ignored;
    const name = firstIgnored!.name ? ` (${firstIgnored!.name})` : '';
    parts.push(
      `${ignored.length} ${ignored.length === 1 ? 'span' : 'spans'} ignored; the first, span ` +
        `${firstIgnored!.span}${name}: ${firstIgnored!.reason}`,
    );
  }
  return { rejectedSpans: rejected.length, errorMessage: parts.join('. ') };
}
