import { printableText, TELEGRAM_ID_PATTERN } from '@lumi/contract';
import {
  HTTP_STATUS,
  IGNORED_REASONS,
  normalisedProvider,
  OTLP_ATTRIBUTES,
  SPAN_KINDS,
  undatedModel,
  type MappedField,
} from './otlp-conventions.js';
import { spanContent } from './otlp-content.js';
import { failureType } from './otlp-errors.js';
import { fullerUsage, usageOf, type SpanUsage } from './otlp-usage.js';
import { approximate, durationNs, hex, idText, isId, plain } from './otlp-values.js';
import type { IgnoredSpan, RejectedSpan, SpanRef } from './otlp-answer.js';
import type { OtlpAnyValue, OtlpSpan, OtlpTraceRequest } from './otlp-wire.js';

/** opentelemetry.proto.trace.v1.Status.StatusCode STATUS_CODE_ERROR. */
const STATUS_ERROR = 2;

export interface GenAiCall extends SpanRef {
  /** The attribute each llm_call field was read from, naming it when the event is refused. */
  sources: Record<string, string>;
  /** An llm_call event for the ingestion API, which validates it as it does any bot's. */
  event: Record<string, unknown>;
}

/** The attributes Lumi reads from a span, by key, and whether they make it a model call. */
interface SpanInfo {
  span: OtlpSpan;
  traceId: string;
  spanId: string;
  parentId: string;
  attributes: Map<string, OtlpAnyValue>;
  modelCall: boolean;
}

const READ_KEYS: ReadonlySet<string> = new Set([
  ...Object.values(OTLP_ATTRIBUTES).flat(),
  ...Object.keys(SPAN_KINDS),
  ...HTTP_STATUS,
]);
const KIND_KEYS = Object.entries(SPAN_KINDS);

function infoOf(span: OtlpSpan): SpanInfo {
  const attributes = new Map<string, OtlpAnyValue>();
  for (const { key, value } of span.attributes ?? [])
    if (key && value && READ_KEYS.has(key)) attributes.set(key, value);
  // A span that names its kind is a model call when every kind it names is one (otlp-conventions.ts).
  const kinds = KIND_KEYS.filter(([key]) => attributes.has(key));
  const modelCall =
    kinds.length > 0
      ? kinds.every(([key, isCall]) => {
          const kind = plain(attributes.get(key)!);
          return typeof kind === 'string' && isCall(kind);
        })
      : first(attributes, 'provider') !== undefined;
  return {
    span,
    traceId: hex(span.traceId),
    spanId: hex(span.spanId),
    parentId: hex(span.parentSpanId),
    attributes,
    modelCall,
  };
}

/** The key of the first attribute of a field's list that the span carries. */
function firstKey(attributes: Map<string, OtlpAnyValue>, field: MappedField): string | undefined {
  return OTLP_ATTRIBUTES[field].find((key) => attributes.get(key)?.value !== undefined);
}

function first(attributes: Map<string, OtlpAnyValue>, field: MappedField): OtlpAnyValue | undefined {
  const key = firstKey(attributes, field);
  return key === undefined ? undefined : attributes.get(key);
}

/** OpenInference's metadata: a JSON object as text, read for the chat, the user and the feature. */
function metadataOf(attributes: Map<string, OtlpAnyValue>): Record<string, unknown> {
  const text = attributes.get(OTLP_ATTRIBUTES.metadata[0]);
  if (text?.value !== 'stringValue' || !text.stringValue || text.stringValue.length > 4096) return {};
  try {
    const parsed: unknown = JSON.parse(text.stringValue);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A chat's or user's Telegram id: Lumi's own attribute as sent (validation refuses a bad one); another
 * convention's (a session or user id, metadata) only when it is one, since it may name something else.
 */
function telegramIdOf(info: SpanInfo, field: 'chat_id' | 'user_id', metadata: Record<string, unknown>) {
  for (const key of OTLP_ATTRIBUTES[field]) {
    const value = info.attributes.get(key);
    if (value?.value === undefined) continue;
    const id = idText(value);
    if (key.startsWith('lumi.')) return id;
    if (typeof id === 'string' && TELEGRAM_ID_PATTERN.test(id)) return id;
  }
  const fromMetadata = metadata[field] ?? metadata[field === 'chat_id' ? 'chatId' : 'userId'];
  const id = typeof fromMetadata === 'number' ? String(fromMetadata) : fromMetadata;
  return typeof id === 'string' && TELEGRAM_ID_PATTERN.test(id) ? id : undefined;
}

/** Which attribute each llm_call field came from, for spanDetail. */
function sourcesOf(info: SpanInfo): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const field of Object.keys(OTLP_ATTRIBUTES) as MappedField[]) {
    const key = firstKey(info.attributes, field);
    if (key) sources[field] = key;
  }
  const model = sources.request_model ?? sources.response_model;
  if (model) sources.model = model;
  return sources;
}

/** A field's value as the span gives it, from the first attribute of its list the span carries. */
function fieldValues(info: SpanInfo): (field: MappedField) => unknown {
  return (field) => {
    const attribute = first(info.attributes, field);
    return attribute && plain(attribute);
  };
}

/** The llm_call event of one model-call span, or why the span cannot be one. */
function callOf(info: SpanInfo): Record<string, unknown> | string {
  const { span } = info;
  if (!isId(span.traceId, 16) || !isId(span.spanId, 8)) {
    return 'needs a 16-byte trace id and an 8-byte span id, not all zeros';
  }
  // Any unsigned 64-bit count of nanoseconds is a time a Date can hold (before the year 2555).
  const start = approximate(span.startTimeUnixNano, true);
  const end = approximate(span.endTimeUnixNano, true);
  if (!(start > 0)) return 'start time: must be a time after 1970 in nanoseconds';
  if (!(end > 0)) return 'end time: the span has not ended';
  const value = fieldValues(info);
  const text = (field: MappedField) => {
    const v = value(field);
    return typeof v === 'string' ? v : undefined;
  };
  // The model asked for names the call, so a failure (which has no answer) counts beside its successes;
  // a dated name the provider answered with prices it. Without the model asked for, the answer's name
  // stands for it without its date.
  const responseModel = text('response_model');
  const model = text('request_model') ?? (responseModel && undatedModel(responseModel));
  const errorType = value('error_type');
  const failed = span.status?.code === STATUS_ERROR || errorType !== undefined;
  const metadata = metadataOf(info.attributes);
  const named = value('provider');
  const provider = typeof named === 'string' ? normalisedProvider(named) : named;
  const usage = usageOf(value, provider);
  // A call that failed before an answer reports no usage; a success without any cannot be priced.
  const usageKnown = failed || usage.input_tokens !== undefined || usage.output_tokens !== undefined;
  const event: Record<string, unknown> = {
    type: 'llm_call',
    // Idempotency: a re-sent span has the same trace and span id, so the same event id and time.
    id: `otlp:${info.traceId}:${info.spanId}`,
    ts: new Date(Math.floor(start / 1e6)).toISOString(),
    provider,
    model,
    // An absent attribute takes its default; a present one of the wrong type is kept, for validation to refuse.
    input_tokens: usage.input_tokens ?? 0,
    output_tokens: usage.output_tokens ?? 0,
    latency_ms: durationNs(span.startTimeUnixNano, span.endTimeUnixNano) / 1e6,
    cached: value('cached') ?? false,
    success: !failed,
  };
  const optional = {
    response_model: responseModel !== model ? responseModel : undefined,
    cache_read_tokens: usage.cache_read_tokens,
    cache_write_tokens: usage.cache_write_tokens,
    usage_known: usageKnown ? undefined : false,
    cost_usd: value('cost_usd'),
    chat_id: telegramIdOf(info, 'chat_id', metadata),
    user_id: telegramIdOf(info, 'user_id', metadata),
    feature: value('feature') ?? (typeof metadata.feature === 'string' ? metadata.feature : undefined),
    error_type: failed ? failureType(span, info.attributes, errorType) : undefined,
  };
  for (const [field, v] of Object.entries(optional)) if (v !== undefined) event[field] = v;
  return event;
}

/** The deepest a span's ancestors are followed, so a malformed trace cannot loop. */
const MAX_DEPTH = 64;

const keyOf = (info: SpanInfo) => `${info.traceId}:${info.spanId}`;

/**
 * The outermost model-call ancestor of the span in the same export, where the call is counted; null when
 * it has none.
 */
function countingAncestor(info: SpanInfo, byId: Map<string, SpanInfo>): SpanInfo | null {
  let found: SpanInfo | null = null;
  let parent = info.parentId && byId.get(`${info.traceId}:${info.parentId}`);
  for (let depth = 0; parent && depth < MAX_DEPTH; depth += 1) {
    if (parent.modelCall) found = parent;
    parent = parent.parentId && byId.get(`${parent.traceId}:${parent.parentId}`);
  }
  return found;
}

/** The call's usage where a span beneath it, of the same call, tells it more fully (otlp-usage.ts). */
function takeFullerUsage(event: Record<string, unknown>, beneath: SpanInfo[]) {
  let usage: SpanUsage = {
    input_tokens: event.input_tokens,
    output_tokens: event.output_tokens,
    cache_read_tokens: event.cache_read_tokens,
    cache_write_tokens: event.cache_write_tokens,
  };
  for (const info of beneath) usage = fullerUsage(usage, usageOf(fieldValues(info), event.provider));
  if (usage.input_tokens === event.input_tokens) return;
  for (const [field, v] of Object.entries(usage)) {
    if (v === undefined) delete event[field];
    else event[field] = v;
  }
  delete event.usage_known;
}

/** The call's prompt and completion, each from the first of its spans (outer first) that carries it. */
function takeContent(event: Record<string, unknown>, spans: SpanInfo[]) {
  for (const info of spans) {
    const content = spanContent(info.span);
    event.prompt ??= content.prompt;
    event.completion ??= content.completion;
    if (event.prompt && event.completion) break;
  }
  if (event.prompt === undefined) delete event.prompt;
  if (event.completion === undefined) delete event.completion;
}

/**
 * The model-call spans of an export request as llm_call events, those that cannot be one (rejected), and
 * every other span with the reason it was not stored (ignored). A model-call span beneath another in the
 * same export is the same call seen by two instrumentations (an SDK's own span under an instrumentation's)
 * and is counted once, at the outer span.
 */
export function genAiCalls(
  request: OtlpTraceRequest,
  /** Whether the key captures content: only then are the prompt and completion read (otlp-content.ts). */
  captureContent = false,
): {
  calls: GenAiCall[];
  rejected: RejectedSpan[];
  ignored: IgnoredSpan[];
} {
  const infos: SpanInfo[] = [];
  for (const resource of request.resourceSpans ?? []) {
    for (const scope of resource.scopeSpans ?? [])
      for (const span of scope.spans ?? []) infos.push(infoOf(span));
  }
  const byId = new Map(infos.map((info) => [keyOf(info), info]));
  /** The model-call spans beneath each counted one. */
  const beneath = new Map<string, SpanInfo[]>();
  const calls: GenAiCall[] = [];
  const rejected: RejectedSpan[] = [];
  const ignored: IgnoredSpan[] = [];
  for (const info of infos) {
    const ref = {
      traceId: info.traceId,
      span: info.spanId || 'without an id',
      // A span's name is any text; it is shown, so what cannot be stored or shown becomes U+FFFD.
      name: printableText(info.span.name ?? ''),
    };
    const ignore = (reason: string) => ignored.push({ ...ref, reason });
    const ancestor = info.modelCall ? countingAncestor(info, byId) : null;
    if (!info.modelCall) ignore(IGNORED_REASONS.notModelCall);
    else if (ancestor) {
      ignore(IGNORED_REASONS.counted);
      beneath.set(keyOf(ancestor), [...(beneath.get(keyOf(ancestor)) ?? []), info]);
    } else if (!first(info.attributes, 'request_model') && !first(info.attributes, 'response_model')) {
      ignore(IGNORED_REASONS.noModel);
    } else {
      const event = callOf(info);
      if (typeof event === 'string') rejected.push({ ...ref, detail: event });
      else calls.push({ ...ref, event, sources: sourcesOf(info) });
    }
  }
  for (const call of calls) {
    const spans = beneath.get(`${call.traceId}:${call.span}`);
    if (spans) takeFullerUsage(call.event, spans);
    if (captureContent)
      takeContent(call.event, [byId.get(`${call.traceId}:${call.span}`)!, ...(spans ?? [])]);
  }
  return { calls, rejected, ignored };
}
