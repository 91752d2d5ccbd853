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

/**
 * `gen_ai.operation.name` values that are one call to a model. The agent and tool operations
 * (`invoke_agent`, `create_agent`, `execute_tool`) may carry a provider and the usage of the model calls
 * beneath them, which are spans of their own: counting them too would count those tokens twice. A span
 * without an operation name (older instrumentations) is a model call.
 */
export const MODEL_OPERATIONS: ReadonlySet<string> = new Set([
  'chat',
  'text_completion',
  'generate_content',
  'embeddings',
]);
const OPERATION_ATTRIBUTE = 'gen_ai.operation.name';

/** What a rejected llm_call field is called in the span that carried it. */
const SOURCE_OF_FIELD: Record<string, string> = {
  ...Object.fromEntries(Object.entries(OTLP_ATTRIBUTES).map(([field, keys]) => [field, keys.join(' or ')])),
  ts: 'start time',
  latency_ms: 'duration',
};

/** opentelemetry.proto.trace.v1.Status.StatusCode STATUS_CODE_ERROR. */
const STATUS_ERROR = 2;

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

type Int64Value = OtlpSpan['startTimeUnixNano'];

/** protobufjs's Long: a 64-bit integer as its two 32-bit halves (its own toString is slow). */
const isLong = (value: unknown): value is { low: number; high: number } =>
  typeof value === 'object' && value !== null && 'low' in value && 'high' in value;

/**
 * A 64-bit integer, exactly: from a Long, a number, or a decimal string (OTLP/JSON); null when it is none
 * of those.
 */
function int64(value: Int64Value): bigint | null {
  if (value === null || value === undefined) return null;
  if (isLong(value)) return BigInt.asIntN(64, (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0));
  try {
    return BigInt(typeof value === 'number' ? Math.trunc(value) : String(value));
  } catch {
    return null;
  }
}

/**
 * A 64-bit integer as a number (a double): exact to 2^53, and within 256 of a time in nanoseconds, far
 * below the millisecond that matters here; NaN when it is no number.
 */
function approximate(value: Int64Value, unsigned: boolean): number {
  if (value === null || value === undefined) return NaN;
  if (isLong(value)) return (unsigned ? value.high >>> 0 : value.high | 0) * 2 ** 32 + (value.low >>> 0);
  return Number(value);
}

/** end − start in nanoseconds, exact below 2^53 ns (104 days): by halves, or as big integers from JSON. */
function durationNs(start: Int64Value, end: Int64Value): number {
  if (isLong(start) && isLong(end)) {
    return ((end.high >>> 0) - (start.high >>> 0)) * 2 ** 32 + ((end.low >>> 0) - (start.low >>> 0));
  }
  const from = int64(start);
  const to = int64(end);
  return from === null || to === null ? NaN : Number(BigInt.asUintN(64, to) - BigInt.asUintN(64, from));
}

/** An attribute's value as the ingestion API's JSON would carry it; null for arrays, maps and bytes. */
function plain(value: OtlpAnyValue): unknown {
  switch (value.value) {
    case 'stringValue':
      return value.stringValue;
    case 'boolValue':
      return value.boolValue;
    case 'intValue':
      return approximate(value.intValue, false);
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

const hex = (bytes: Uint8Array | null | undefined) =>
  bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex') : '';
const isId = (bytes: Uint8Array | null | undefined, length: number) =>
  bytes?.length === length && bytes.some((byte) => byte !== 0);

/** For each attribute Lumi reads: the field it fills and its rank among that field's attributes. */
const ATTRIBUTE_FIELDS = new Map<string, { field: MappedField; rank: number }>(
  Object.entries(OTLP_ATTRIBUTES).flatMap(([field, keys]) =>
    keys.map((key, rank) => [key, { field: field as MappedField, rank }] as const),
  ),
);

type Picked = Partial<Record<MappedField, { rank: number; value: OtlpAnyValue }>>;

/**
 * The span's attributes that Lumi reads, the first-ranked one per field; null when the span names an
 * operation that is not a model call.
 */
function pick(span: OtlpSpan): Picked | null {
  const picked: Picked = {};
  for (const { key, value } of span.attributes ?? []) {
    if (key === OPERATION_ATTRIBUTE) {
      const operation = value && plain(value);
      if (typeof operation === 'string' && !MODEL_OPERATIONS.has(operation)) return null;
      continue;
    }
    const target = key ? ATTRIBUTE_FIELDS.get(key) : undefined;
    if (!target || !value) continue;
    const held = picked[target.field];
    if (!held || target.rank < held.rank) picked[target.field] = { rank: target.rank, value };
  }
  return picked;
}

/** The llm_call event of one GenAI span, or why the span cannot be one. */
function callOf(span: OtlpSpan, picked: Picked): Record<string, unknown> | string {
  if (!isId(span.traceId, 16) || !isId(span.spanId, 8)) {
    return 'needs a 16-byte trace id and an 8-byte span id, not all zeros';
  }
  // Any unsigned 64-bit count of nanoseconds is a time a Date can hold (before the year 2555).
  const start = approximate(span.startTimeUnixNano, true);
  const end = approximate(span.endTimeUnixNano, true);
  if (!(start > 0)) return 'start time: must be a time after 1970 in nanoseconds';
  if (!(end > 0)) return 'end time: the span has not ended';
  const value = (name: MappedField) => {
    const attribute = picked[name];
    return attribute && plain(attribute.value);
  };
  // An absent attribute takes its default; a present one of the wrong type is kept, for validation to refuse.
  const orElse = (name: MappedField, fallback: unknown) => {
    const v = value(name);
    return v === undefined ? fallback : v;
  };
  const errorType = value('error_type');
  const failed = span.status?.code === STATUS_ERROR || errorType !== undefined;
  const event: Record<string, unknown> = {
    type: 'llm_call',
    // Idempotency: a re-sent span has the same trace and span id, so the same event id and time.
    id: `otlp:${hex(span.traceId)}:${hex(span.spanId)}`,
    ts: new Date(Math.floor(start / 1e6)).toISOString(),
    provider: value('provider'),
    model: value('model'),
    // A call that failed before an answer reports no usage.
    input_tokens: orElse('input_tokens', 0),
    output_tokens: orElse('output_tokens', 0),
    latency_ms: durationNs(span.startTimeUnixNano, span.endTimeUnixNano) / 1e6,
    cached: orElse('cached', false),
    success: !failed,
  };
  const optional = {
    cost_usd: value('cost_usd'),
    chat_id: picked.chat_id && idText(picked.chat_id.value),
    user_id: picked.user_id && idText(picked.user_id.value),
    feature: value('feature'),
    error_type: failed ? errorType : undefined,
  };
  for (const [field, v] of Object.entries(optional)) if (v !== undefined) event[field] = v;
  return event;
}

/**
 * The GenAI spans of an export request as llm_call events, and the GenAI spans that cannot be one. A span
 * is a GenAI span when it names its provider (`gen_ai.provider.name`, or the older `gen_ai.system`) and
 * no operation other than a model call; every other span is ignored.
 */
export function genAiCalls(request: OtlpTraceRequest): { calls: GenAiCall[]; rejected: RejectedSpan[] } {
  const calls: GenAiCall[] = [];
  const rejected: RejectedSpan[] = [];
  for (const resource of request.resourceSpans ?? []) {
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        const picked = pick(span);
        if (!picked?.provider) continue;
        const spanId = hex(span.spanId) || 'without an id';
        const event = callOf(span, picked);
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
