import type { OtlpAnyValue, OtlpKeyValue, OtlpSpan } from './otlp-wire.js';

/**
 * A model-call span's prompt and completion, for an API key that captures content
 * (docs/bot-developers/otlp.md, "Content of calls"). Where each convention puts them, first found wins:
 * - GenAI semantic conventions: `gen_ai.system_instructions`, `gen_ai.input.messages` and
 *   `gen_ai.output.messages` (JSON, messages of `parts`); the older `gen_ai.prompt` and `gen_ai.completion`
 *   (JSON, on the span or on its `gen_ai.content.prompt` and `gen_ai.content.completion` events).
 * - OpenLLMetry: `gen_ai.prompt.N.role` / `.content` and `gen_ai.completion.N.role` / `.content`.
 * - OpenInference: `llm.input_messages.N.message.role` / `.content`, likewise `llm.output_messages`, else
 *   `input.value` and `output.value`.
 * - Vercel AI SDK: `ai.prompt.messages` (JSON), else `ai.prompt` (JSON with `system`, `prompt` or
 *   `messages`); `ai.response.text`.
 */

interface Message {
  role: string;
  content: string;
}
export interface SpanContent {
  prompt?: Message[];
  completion?: Message[];
}

const text = (value: OtlpAnyValue | undefined): string | undefined =>
  value?.value === 'stringValue' ? (value.stringValue ?? undefined) : undefined;

function parseJson(source: string | undefined): unknown {
  if (source === undefined) return undefined;
  try {
    return JSON.parse(source);
  } catch {
    return source;
  }
}

/** The text of a message's content in any convention's shape: a string, parts, or {text}/{content}. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(contentText).filter(Boolean).join('\n');
  if (content && typeof content === 'object') {
    const part = content as { type?: unknown; text?: unknown; content?: unknown };
    if (typeof part.text === 'string') return part.text;
    if (typeof part.content === 'string' && (part.type === undefined || part.type === 'text'))
      return part.content;
  }
  return '';
}

/** Messages from a parsed value: an array of {role, content|parts}, or plain text as one message of `role`. */
function messagesOf(value: unknown, role: string): Message[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return [{ role, content: value }];
  const list = Array.isArray(value) ? value : [value];
  const messages = list.map((entry) => {
    if (typeof entry === 'string') return { role, content: entry };
    const message = (entry ?? {}) as {
      role?: unknown;
      content?: unknown;
      parts?: unknown;
      message?: unknown;
    };
    return {
      role: typeof message.role === 'string' ? message.role : role,
      content: contentText(message.parts ?? message.content ?? message.message ?? entry),
    };
  });
  return messages.some((m) => m.content !== '') ? messages : undefined;
}

/** Indexed attributes (`prefix.N.role`, `prefix.N.content`), read as messages in index order. */
const INDEXED = {
  prompt: /^gen_ai\.prompt\.(\d+)\.(role|content)$/,
  completion: /^gen_ai\.completion\.(\d+)\.(role|content)$/,
  input: /^llm\.input_messages\.(\d+)\.message\.(role|content)$/,
  output: /^llm\.output_messages\.(\d+)\.message\.(role|content)$/,
};

function indexed(attributes: Map<string, OtlpAnyValue>, pattern: RegExp, role: string) {
  const found = new Map<number, Message>();
  for (const [key, value] of attributes) {
    const match = pattern.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    const message = found.get(index) ?? { role, content: '' };
    if (match[2] === 'role') message.role = text(value) ?? role;
    else message.content = text(value) ?? '';
    found.set(index, message);
  }
  if (found.size === 0) return undefined;
  return [...found.entries()].sort(([a], [b]) => a - b).map(([, message]) => message);
}

function eventAttribute(span: OtlpSpan, event: string, key: string): string | undefined {
  const found = span.events?.find((e) => e.name === event);
  return text(found?.attributes?.find((a) => a.key === key)?.value ?? undefined);
}

/** The AI SDK's `ai.prompt`: {system?, prompt?, messages?}. */
function aiSdkPrompt(value: unknown): Message[] | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return messagesOf(value, 'user');
  const prompt = value as { system?: unknown; prompt?: unknown; messages?: unknown };
  const messages = [
    ...(messagesOf(prompt.system, 'system') ?? []),
    ...(messagesOf(prompt.messages, 'user') ?? []),
    ...(messagesOf(prompt.prompt, 'user') ?? []),
  ];
  return messages.length > 0 ? messages : undefined;
}

export function spanContent(span: OtlpSpan): SpanContent {
  const attributes = new Map<string, OtlpAnyValue>();
  for (const { key, value } of span.attributes ?? ([] as OtlpKeyValue[]))
    if (key && value) attributes.set(key, value);
  const get = (key: string) => text(attributes.get(key));

  const system = messagesOf(parseJson(get('gen_ai.system_instructions')), 'system');
  const input =
    messagesOf(parseJson(get('gen_ai.input.messages')), 'user') ??
    messagesOf(
      parseJson(get('gen_ai.prompt') ?? eventAttribute(span, 'gen_ai.content.prompt', 'gen_ai.prompt')),
      'user',
    ) ??
    indexed(attributes, INDEXED.prompt, 'user') ??
    indexed(attributes, INDEXED.input, 'user') ??
    messagesOf(parseJson(get('ai.prompt.messages')), 'user') ??
    aiSdkPrompt(parseJson(get('ai.prompt'))) ??
    messagesOf(get('input.value'), 'user');
  const prompt = system || input ? [...(system ?? []), ...(input ?? [])] : undefined;
  const completion =
    messagesOf(parseJson(get('gen_ai.output.messages')), 'assistant') ??
    messagesOf(
      parseJson(
        get('gen_ai.completion') ?? eventAttribute(span, 'gen_ai.content.completion', 'gen_ai.completion'),
      ),
      'assistant',
    ) ??
    indexed(attributes, INDEXED.completion, 'assistant') ??
    indexed(attributes, INDEXED.output, 'assistant') ??
    messagesOf(get('ai.response.text'), 'assistant') ??
    messagesOf(get('output.value'), 'assistant');
  return { ...(prompt && { prompt }), ...(completion && { completion }) };
}
