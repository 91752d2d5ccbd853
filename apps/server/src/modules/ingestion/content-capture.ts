import { randomUUID } from 'node:crypto';
import {
  LLM_CONTENT_REDACTED,
  normaliseContent,
  type LlmCallEvent,
  type LlmContentMessage,
} from '@lumi/contract';
import { REDACTION_FLAGS } from '../api-keys/redaction-patterns.js';
import type { ContentRow } from '../telemetry-store/telemetry-store.js';

// The content of calls (docs/operators/metrics.md, "Content of calls"): what a key that captures content
// keeps of an llm_call's prompt and completion, redacted before it is stored.

/** A key's content settings as ingestion applies them: null when the key does not capture content. */
export interface ContentCapture {
  redactions: string[];
}

/** Applies compiled patterns to one side's messages; returns how many matches were replaced. */
function redact(messages: LlmContentMessage[], patterns: RegExp[]): number {
  let replaced = 0;
  for (const message of messages) {
    for (const pattern of patterns) {
      message.text = message.text.replace(pattern, () => {
        replaced += 1;
        return LLM_CONTENT_REDACTED;
      });
    }
  }
  return replaced;
}

/**
 * The content row of a call that carries a prompt or a completion, or null. Cut to LLM_CONTENT_LIMITS
 * first, so the patterns run over bounded text, then redacted.
 */
export function contentRow(
  call: Pick<LlmCallEvent, 'prompt' | 'completion' | 'ts'>,
  patterns: RegExp[],
): ContentRow | null {
  if (call.prompt === undefined && call.completion === undefined) return null;
  const prompt = normaliseContent(call.prompt ?? [], 'user');
  const completion = normaliseContent(call.completion ?? [], 'assistant');
  const redactions = redact(prompt.messages, patterns) + redact(completion.messages, patterns);
  return {
    id: randomUUID(),
    ts: call.ts,
    prompt: JSON.stringify(prompt.messages),
    completion: JSON.stringify(completion.messages),
    truncated: prompt.truncated || completion.truncated ? 1 : 0,
    redactions,
  };
}

/** The key's patterns, compiled once per batch (they were checked when the key was saved). */
export function compileRedactions(capture: ContentCapture): RegExp[] {
  return capture.redactions.map((pattern) => new RegExp(pattern, REDACTION_FLAGS));
}
