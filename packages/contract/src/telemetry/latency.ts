import { z } from 'zod';
import { timestamp } from './fields.js';

// Latency percentiles (docs/operators/metrics.md, "Latency percentiles"), from the hourly latency histograms.

/**
 * Longest range of a latency query (the console's longest view, 90 days, and a little more, so a request's
 * work stays bounded; the histograms are kept 400 days), and of one answered hour by hour.
 */
export const LATENCY_LIMITS = { maxDays: 92, maxHourlyDays: 7 } as const;
export const LATENCY_INTERVALS = ['hour', 'day'] as const;
export type LatencyInterval = (typeof LATENCY_INTERVALS)[number];

export const latencyQuerySchema = z.object({
  /** Start of the range; default 24 hours before `to`. Hours that overlap [from, to) count whole. */
  from: timestamp.optional(),
  /** End of the range (exclusive); default now. */
  to: timestamp.optional(),
  interval: z.enum(LATENCY_INTERVALS, { error: 'interval must be hour or day' }).default('hour'),
});
export type LatencyQuery = z.input<typeof latencyQuerySchema>;

/** Milliseconds, each within 2 % of the exact nearest-rank percentile; null where there were no calls. */
const latencyFiguresSchema = z.object({
  requests: z.number().int(),
  p50_ms: z.number().nullable(),
  p95_ms: z.number().nullable(),
  p99_ms: z.number().nullable(),
});
export type LatencyFigures = z.infer<typeof latencyFiguresSchema>;

const latencySeriesSchema = z.object({
  /** The whole range, merged from every hour's histogram. */
  total: latencyFiguresSchema,
  /** Every interval of the range, oldest first, with requests 0 and null percentiles where quiet. */
  intervals: z.array(latencyFiguresSchema.extend({ start: z.string() })),
});

/** The whole UTC hours the range touches: `to` is the end of the last. */
const latencyRangeSchema = {
  from: z.string(),
  to: z.string(),
  interval: z.enum(LATENCY_INTERVALS),
};

export const llmLatencySchema = z
  .object({
    ...latencyRangeSchema,
    models: z.array(latencySeriesSchema.extend({ provider: z.string(), model: z.string() })),
  })
  .meta({ id: 'LlmLatency' });
export type LlmLatency = z.infer<typeof llmLatencySchema>;

export const integrationLatencySchema = z
  .object({
    ...latencyRangeSchema,
    services: z.array(latencySeriesSchema.extend({ service_name: z.string() })),
  })
  .meta({ id: 'IntegrationLatency' });
export type IntegrationLatency = z.infer<typeof integrationLatencySchema>;
