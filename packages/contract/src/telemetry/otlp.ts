import { z } from 'zod';

/** How many of an API key's latest ignored spans Lumi keeps (docs/bot-developers/otlp.md, "Ignored spans"). */
export const IGNORED_SPANS_KEPT = 50;

export const ignoredSpanSchema = z
  .object({
    received_at: z.string(),
    trace_id: z.string(),
    span_id: z.string(),
    /** The span's name as the instrumentation gave it; may be empty. */
    name: z.string(),
    /** "no model name", "not a model call", "counted already under its parent", or why it was refused. */
    reason: z.string(),
  })
  .meta({ id: 'IgnoredSpan' });
export type IgnoredSpan = z.infer<typeof ignoredSpanSchema>;

export const ignoredSpansSchema = z
  .object({ spans: z.array(ignoredSpanSchema) })
  .meta({ id: 'IgnoredSpans' });
export type IgnoredSpans = z.infer<typeof ignoredSpansSchema>;
