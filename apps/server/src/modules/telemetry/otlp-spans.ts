import type { OtlpAnyValue, OtlpSpan, OtlpTraceRequest } from './otlp-wire.js';

/**
 * Which span attributes become which llm_call fields: the OpenTelemetry GenAI semantic conventions
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/) and Lumi's own `lumi.*` attributes
 * for what the conventions do not name. The first attribute of a list that is present wins.
 */
export const OTLP_ATTRIBUTES = {
  provider: ['gen_ai.provider.name', 'gen_ai.system'],
  model: ['gen_ai.response.model', 'gen_ai.request.model'],
  input_tokens: ['gen_ai.usage.input_tokens'],
  output_tokens: ['gen_ai.usage.output_tokens'],
  error_type: ['error.type'],
  chat_id: ['lumi.chat_id'],
  user_id: ['lumi.user_id'],
  feature: ['lumi.feature'],
  cached: ['lumi.cached'],
  cost_usd: ['lumi.cost_usd'],
} as const;

type MappedField = keyof typeof OTLP_ATTRIBUTES;

/** What a rejected llm_call field is called in the span that carried it. */
const SOURCE_OF_FIELD: Record<string, string> = {
  ...Object.fromEntries(Object.entries(OTLP_ATTRIBUTES).map(([field, keys]) => [field, keys.join(' or ')])),
  ts: 'start time',
  latency_ms: 'duration',
};

/** opentelemetry.proto.trace.v1.Status.StatusCode STATUS_CODE_ERROR. */
const STATUS_ERROR = 2;
const NANOS_PER_MS = 1_000_000n;

export interface GenAiCall {
  /** The span id in hex, naming the span in a rejection message. */
  span: string;
  /** An llm_call event for the ingestion API, which validates it as it does any bot's. */
  event: Record<string, unknown>;
}

export interface RejectedSpan {
  span: string;
  detail: string;
}

/** An attribute's value as the ingestion API's JSON would carry it; null for arrays, maps and bytes. */
function plain(value: OtlpAnyValue): unknown {
  switch (value.value) {
    case 'stringValue':
      return value.stringValue;
    case 'boolValue':
      return value.boolValue;
    case 'intValue':
      return Number(int64(value.intValue));
    case 'doubleValue':
      return value.doubleValue;
    case undefined:
      return undefined;
    default:
      return null;
  }
}

/** A Telegram id: an int attribute in its exact decimal form (int64 exceeds a double), a string as sent. */
function idText(value: OtlpAnyValue): unknown {
  return value.value === 'intValue' ? String(int64(value.intValue)) : plain(value);
}

/** An absent attribute's default; a present one of the wrong type is kept, for validation to refuse. */
const orElse = (value: unknown, fallback: unknown) => (value === undefined ? fallback : value);

const hex = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('hex');
const isId = (bytes: Uint8Array | null | undefined, length: number) =>
  bytes?.length === length && bytes.some((byte) => byte !== 0);

type Int64Value = OtlpSpan['startTimeUnixNano'];

/**
 * A 64-bit integer as protobufjs gives it: a Long (its two 32-bit halves, read directly, as its own
 * toString is slow), a number, or a decimal string from JSON; null when it is none of those.
 */
function int64(value: Int64Value): bigint | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && 'low' in value && 'high' in value) {
    const { low, high } = value as { low: number; high: number };
    return BigInt.asIntN(64, (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0));
  }
  try {
    return BigInt(typeof value === 'number' ? Math.trunc(value) : String(value));
  } catch {
    return null;
  }
}

/** A fixed64 time in nanoseconds (unsigned). */
function nanos(value: Int64Value): bigint | null {
  const signed = int64(value);
  return signed === null ? null : BigInt.asUintN(64, signed);
}

/** The llm_call event of one GenAI span, or why the span cannot be one. */
function callOf(span: OtlpSpan, attributes: Map<string, OtlpAnyValue>): Record<string, unknown> | string {
  if (!isId(span.traceId, 16) || !isId(span.spanId, 8)) {
    return 'needs a 16-byte trace id and an 8-byte span id, not all zeros';
  }
  const start = nanos(span.startTimeUnixNano);
  const end = nanos(span.endTimeUnixNano);
  // Any unsigned 64-bit count of nanoseconds is a time a Date can hold (before the year 2555).
  if (start === null || start <= 0n) {
    return 'start time: must be a time after 1970 in nanoseconds';
  }
  if (end === null || end <= 0n) return 'end time: the span has not ended';
  const field = (name: MappedField) => {
    const key = OTLP_ATTRIBUTES[name].find((k) => attributes.has(k));
    return key === undefined ? undefined : attributes.get(key);
  };
  const value = (name: MappedField) => {
    const attribute = field(name);
    return attribute && plain(attribute);
  };
  const telegramId = (name: 'chat_id' | 'user_id') => {
    const attribute = field(name);
    return attribute && idText(attribute);
  };
  const errorType = value('error_type');
  const failed = span.status?.code === STATUS_ERROR || errorType !== undefined;
  const optional = {
    cost_usd: value('cost_usd'),
    chat_id: telegramId('chat_id'),
    user_id: telegramId('user_id'),
    feature: value('feature'),
    error_type: failed ? errorType : undefined,
  };
  return {
    type: 'llm_call',
    // Idempotency: a re-sent span has the same trace and span id, so the same event id and time.
    id: `otlp:${hex(span.traceId)}:${hex(span.spanId)}`,
    ts: new Date(Number(start / NANOS_PER_MS)).toISOString(),
    provider: value('provider'),
    model: value('model'),
    // A call that failed before an answer reports no usage.
    input_tokens: orElse(value('input_tokens'), 0),
    output_tokens: orElse(value('output_tokens'), 0),
    latency_ms: Number(end - start) / 1e6,
    cached: orElse(value('cached'), false),
    success: !failed,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  };
}

/**
 * The GenAI spans of an export request as llm_call events, and the GenAI spans that cannot be one. A span
 * is a GenAI span when it names its provider (`gen_ai.provider.name`, or the older `gen_ai.system`);
 * every other span is ignored.
 */
export function genAiCalls(request: OtlpTraceRequest): { calls: GenAiCall[]; rejected: RejectedSpan[] } {
  const calls: GenAiCall[] = [];
  const rejected: RejectedSpan[] = [];
  for (const resource of request.resourceSpans ?? []) {
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        const attributes = new Map<string, OtlpAnyValue>();
        for (const { key, value } of span.attributes ?? []) {
          if (key && value && !attributes.has(key)) attributes.set(key, value);
        }
        if (!OTLP_ATTRIBUTES.provider.some((key) => attributes.has(key))) continue;
        const spanId = hex(span.spanId) || 'without an id';
        const event = callOf(span, attributes);
        if (typeof event === 'string') rejected.push({ span: spanId, detail: event });
        else calls.push({ span: spanId, event });
      }
    }
  }
  return { calls, rejected };
}

/**
 * The ingestion API's reason for refusing an event, in the span's terms: "input_tokens: …" becomes
 * "gen_ai.usage.input_tokens: …".
 */
export function spanDetail(detail: string): string {
  const colon = detail.indexOf(': ');
  const field = colon > 0 ? detail.slice(0, colon).split('.')[0] : undefined;
  const source = field === undefined ? undefined : SOURCE_OF_FIELD[field];
  return source === undefined ? detail : `${source}${detail.slice(colon)}`;
}

/** At most this many rejected spans are described in the partial success message. */
const MAX_DESCRIBED = 3;

/** OTLP's partial success (rejected count and a message naming the first spans and why), or null. */
export function partialSuccess(
  genAiSpans: number,
  rejected: RejectedSpan[],
): { rejectedSpans: number; errorMessage: string } | null {
  if (rejected.length === 0) return null;
  const described = rejected.slice(0, MAX_DESCRIBED).map((r) => `span ${r.span}: ${r.detail}`);
  const more = rejected.length - described.length;
  const reasons = more > 0 ? `${described.join('; ')}; and ${more} more` : described.join('; ');
  return {
    rejectedSpans: rejected.length,
    errorMessage: `${rejected.length} of ${genAiSpans} GenAI spans rejected: ${reasons}`,
  };
}
