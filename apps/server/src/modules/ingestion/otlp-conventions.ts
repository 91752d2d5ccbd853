/**
 * The conventions LLM instrumentations write their spans in, and which of their attributes fill which
 * llm_call field (docs/bot-developers/otlp.md, "What Lumi reads"). For each field the first attribute of its
 * list that a span carries wins.
 * - OpenTelemetry's GenAI semantic conventions, current and older names
 *   (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/): `gen_ai.*`, `error.type`.
 * - OpenInference (Arize Phoenix; https://github.com/Arize-ai/openinference/tree/main/spec): `llm.*`,
 *   `embedding.*`, `openinference.span.kind`, `session.id`, `user.id`, `metadata`.
 * - OpenLLMetry (Traceloop): the older `gen_ai.*` names, `llm.request.type`, `llm.usage.*`,
 *   `traceloop.association.properties.*`.
 * - The Vercel AI SDK's telemetry (https://ai-sdk.dev/docs/ai-sdk-core/telemetry): `ai.*`, `ai.usage.*`,
 *   `ai.telemetry.metadata.*`.
 * - Lumi's own `lumi.*` attributes (often copied from W3C baggage by a BaggageSpanProcessor).
 */
export const OTLP_ATTRIBUTES = {
  provider: ['gen_ai.provider.name', 'gen_ai.system', 'llm.provider', 'llm.system', 'ai.model.provider'],
  request_model: ['gen_ai.request.model', 'ai.model.id', 'embedding.model_name'],
  response_model: ['gen_ai.response.model', 'ai.response.model', 'llm.model_name'],
  input_tokens: [
    'gen_ai.usage.input_tokens',
    'gen_ai.usage.prompt_tokens',
    'llm.token_count.prompt',
    'ai.usage.inputTokens',
    'ai.usage.promptTokens',
    'ai.usage.tokens',
    'embedding.token_count',
  ],
  output_tokens: [
    'gen_ai.usage.output_tokens',
    'gen_ai.usage.completion_tokens',
    'llm.token_count.completion',
    'ai.usage.outputTokens',
    'ai.usage.completionTokens',
  ],
  total_tokens: ['llm.usage.total_tokens', 'gen_ai.usage.total_tokens', 'llm.token_count.total'],
  reasoning_tokens: [
    'gen_ai.usage.reasoning_tokens',
    'gen_ai.usage.reasoning.output_tokens',
    'llm.token_count.completion_details.reasoning',
  ],
  cache_read_tokens: [
    'gen_ai.usage.cache_read.input_tokens',
    'gen_ai.usage.cache_read_input_tokens',
    'llm.token_count.prompt_details.cache_read',
    'ai.usage.cachedInputTokens',
  ],
  cache_write_tokens: [
    'gen_ai.usage.cache_creation.input_tokens',
    'gen_ai.usage.cache_write.input_tokens',
    'gen_ai.usage.cache_creation_input_tokens',
    'llm.token_count.prompt_details.cache_write',
  ],
  error_type: ['error.type'],
  chat_id: [
    'lumi.chat_id',
    'ai.telemetry.metadata.chat_id',
    'ai.telemetry.metadata.chatId',
    'traceloop.association.properties.chat_id',
    'session.id',
    'gen_ai.conversation.id',
  ],
  user_id: [
    'lumi.user_id',
    'ai.telemetry.metadata.user_id',
    'ai.telemetry.metadata.userId',
    'traceloop.association.properties.user_id',
    'user.id',
  ],
  feature: [
    'lumi.feature',
    'ai.telemetry.metadata.feature',
    'traceloop.association.properties.feature',
    'ai.telemetry.functionId',
  ],
  cached: ['lumi.cached'],
  cost_usd: ['lumi.cost_usd'],
  /** OpenInference's free-form metadata, a JSON object as text: chat_id, user_id and feature are read. */
  metadata: ['metadata'],
} as const;

export type MappedField = keyof typeof OTLP_ATTRIBUTES;

/**
 * What each convention says a span is. A span that names its kind is a model call only when the kind is
 * one; a span that names none is one when it names a provider (older instrumentations).
 * - `gen_ai.operation.name`: the agent and tool operations (`invoke_agent`, `execute_tool` …) carry the
 *   usage of the model calls beneath them, which are spans of their own.
 * - `openinference.span.kind`: LLM and EMBEDDING; CHAIN, AGENT, TOOL … wrap them.
 * - `llm.request.type` (OpenLLMetry).
 * - `ai.operationId` (Vercel AI SDK): `ai.generateText` wraps its `ai.generateText.doGenerate` calls, the
 *   model calls; likewise doStream and doEmbed.
 */
export const SPAN_KINDS = {
  'gen_ai.operation.name': (v: string) =>
    ['chat', 'text_completion', 'generate_content', 'embeddings', 'completion', 'embedding'].includes(v),
  'openinference.span.kind': (v: string) => ['LLM', 'EMBEDDING'].includes(v.toUpperCase()),
  'llm.request.type': (v: string) => ['chat', 'completion', 'embedding', 'embeddings'].includes(v),
  'ai.operationId': (v: string) => /\.do(Generate|Stream|Embed)$/.test(v),
} as const satisfies Record<string, (value: string) => boolean>;

/**
 * Provider names as budgets know them. The GenAI conventions' well-known names stay as they are (lower
 * case); an API of a provider as the AI SDK names it ("openai.chat", "anthropic.messages") becomes the
 * provider; OpenLLMetry's "OpenAI" becomes "openai".
 */
const PROVIDER_APIS =
  /^([a-z0-9_-]+)\.(chat|responses|completion|embedding|messages|generative-ai|image|transcription|speech)$/;
const PROVIDER_ALIASES: Record<string, string> = {
  'google.generative-ai': 'google',
  'azure-openai': 'azure',
  // The GenAI conventions' names of Google's APIs (Gemini API, Vertex AI), whose prices are Google's.
  'gcp.gen_ai': 'google',
  'gcp.gemini': 'google',
  'gcp.vertex_ai': 'google',
};

export function normalisedProvider(name: string): string {
  const lower = name.trim().toLowerCase();
  const api = PROVIDER_APIS.exec(lower);
  const provider = PROVIDER_ALIASES[lower] ?? api?.[1] ?? lower;
  return PROVIDER_ALIASES[provider] ?? provider;
}

/** A date at the end of a model name, as providers version them ("gpt-4o-mini-2024-07-18"). */
const DATE_SUFFIX = /-\d{4}-\d{2}-\d{2}$|-\d{8}$/;

export function undatedModel(name: string): string {
  return name.replace(DATE_SUFFIX, '');
}

/** The HTTP status of a call, which names its failure best (otlp-errors.ts). */
export const HTTP_STATUS = ['http.response.status_code', 'http.status_code'];

/** Why a span was not stored, in the words the console and the OTLP answer use. */
export const IGNORED_REASONS = {
  noModel: 'no model name',
  notModelCall: 'not a model call',
  counted: 'counted already under its parent',
} as const;
