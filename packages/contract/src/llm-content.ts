import { z } from 'zod';
import { printableText } from './text.js';

/**
 * The prompt and completion text of an LLM call (docs/operators/metrics.md, "Content of calls"): kept only
 * for calls reported with an API key that captures content (off by default), capped, with the key's
 * redaction patterns applied before anything is stored, removed after LUMI_CONTENT_RETENTION_DAYS, and read
 * only with the `llm:content:read` permission, each view audited.
 */
export const LLM_CONTENT_LIMITS = {
  /** Characters kept of a call's prompt, and apart of its completion; the rest is cut. */
  textMax: 16_000,
  /** Messages kept of each side. */
  messagesMax: 100,
  /** Characters of a role ("system", "user", "assistant", "tool" …). */
  roleMax: 40,
  /** Redaction patterns per key, and characters per pattern. */
  redactionsMax: 20,
  patternMax: 200,
  /** LUMI_CONTENT_RETENTION_DAYS when unset. */
  retentionDaysDefault: 7,
} as const;

/** What a redaction pattern's matches become. */
export const LLM_CONTENT_REDACTED = '[redacted]';

/** Patterns an operator can add with one click, in the words the key's Content dialog shows. */
export const LLM_CONTENT_REDACTION_PRESETS = [
  { label: 'Email addresses', pattern: '[\\w.+-]+@[\\w-]+\\.[\\w.-]*\\w' },
  { label: 'Phone numbers', pattern: '\\+?\\d[\\d ()-]{7,}\\d' },
  { label: 'Card numbers', pattern: '\\b\\d{4}[ -]?\\d{4}[ -]?\\d{4}[ -]?\\d{1,7}\\b' },
  { label: 'API keys and tokens', pattern: '\\b(?:sk|pk|lumi|ghp|xox[abp])[-_][A-Za-z0-9_-]{16,}' },
] as const;

export interface LlmContentMessage {
  role: string;
  text: string;
}

/** One side of a call as a bot may send it: plain text, or chat messages with a role and text content. */
const sideSchema = z.union([
  z.string(),
  z.array(
    z.object({
      role: z.string().max(LLM_CONTENT_LIMITS.roleMax),
      content: z.string(),
    }),
  ),
]);

/**
 * A side as stored: messages (plain text is one message of `role`), printable, at most messagesMax of them
 * and textMax characters in all; `truncated` when anything was cut.
 */
export function normaliseContent(
  side: string | ReadonlyArray<{ role: string; content: string }>,
  role: string,
): { messages: LlmContentMessage[]; truncated: boolean } {
  const given = typeof side === 'string' ? [{ role, content: side }] : side;
  let room: number = LLM_CONTENT_LIMITS.textMax;
  let truncated = given.length > LLM_CONTENT_LIMITS.messagesMax;
  const messages: LlmContentMessage[] = [];
  for (const message of given.slice(0, LLM_CONTENT_LIMITS.messagesMax)) {
    if (room === 0) {
      truncated = true;
      break;
    }
    const text = message.content.length > room ? message.content.slice(0, room) : message.content;
    if (text.length < message.content.length) truncated = true;
    room -= text.length;
    messages.push({ role: printableText(message.role.trim() || role), text: printableText(text) });
  }
  return { messages, truncated };
}

/** The content fields of an `llm_call` event (docs/bot-developers/ingestion.md, "Content of calls"). */
export const llmContentEventFields = {
  /** The prompt: text, or the chat messages sent ({role, content}). Kept only by a key that captures content. */
  prompt: sideSchema.optional(),
  /** The completion: text, or the messages the model answered with. */
  completion: sideSchema.optional(),
};

/** A key's content settings, as the key's Content dialog edits them. */
export const apiKeyContentSchema = z.object({
  capture_content: z.boolean(),
  content_redactions: z
    .array(
      z
        .string()
        .trim()
        .min(1, 'A pattern must not be blank')
        .max(
          LLM_CONTENT_LIMITS.patternMax,
          `A pattern must be at most ${LLM_CONTENT_LIMITS.patternMax} characters`,
        ),
    )
    .max(LLM_CONTENT_LIMITS.redactionsMax, `At most ${LLM_CONTENT_LIMITS.redactionsMax} patterns`)
    .transform((patterns) => [...new Set(patterns)]),
});
export type ApiKeyContentInput = z.input<typeof apiKeyContentSchema>;
export type ApiKeyContent = z.output<typeof apiKeyContentSchema>;

/** Whether a call's content can be read: kept, removed by retention, or never kept. */
export const LLM_CONTENT_STATES = ['kept', 'removed', 'none'] as const;
export type LlmContentState = (typeof LLM_CONTENT_STATES)[number];

const messageSchema = z.object({ role: z.string(), text: z.string() });

export const llmCallContentSchema = z
  .object({
    prompt: z.array(messageSchema),
    completion: z.array(messageSchema),
    /** Something was cut to the limits (LLM_CONTENT_LIMITS). */
    truncated: z.boolean(),
    /** How many matches of the key's redaction patterns were replaced before storing. */
    redactions: z.number(),
    /** When the content is removed (LUMI_CONTENT_RETENTION_DAYS after the call). */
    expires_at: z.string(),
  })
  .meta({ id: 'LlmCallContent' });
export type LlmCallContent = z.infer<typeof llmCallContentSchema>;
