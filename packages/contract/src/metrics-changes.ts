import { z } from 'zod';
import { llmRangeQuerySchema } from './llm-dimensions.js';

/**
 * Change markers and CSV exports (docs/operators/metrics.md, "Change markers" and "CSV exports"): what
 * changed before a spike, drawn on the usage and latency charts, and the panels' numbers as files for a
 * spreadsheet. Both take the metrics' `from`/`to` range (ISO 8601, `to` exclusive, at most LLM_RANGE_MAX_DAYS
 * long, the last 24 hours without one).
 */

/** The audit actions that change what the bot says or spends, each drawn as a change marker. */
export const CHANGE_MARKER_ACTIONS = [
  'config.created',
  'config.updated',
  'config.deleted',
  'config.restored',
  'config.imported',
  'template.created',
  'template.updated',
  'template.deleted',
  'template.restored',
  'token_budget.created',
  'token_budget.updated',
  'token_budget.deleted',
  'model_price.set',
] as const;
export type ChangeMarkerAction = (typeof CHANGE_MARKER_ACTIONS)[number];

/** The most markers one answer holds: the newest ones, with `truncated` set when there were more. */
export const CHANGE_MARKERS_MAX = 500;

export const changeMarkersQuerySchema = llmRangeQuerySchema;
export type ChangeMarkersQuery = z.infer<typeof changeMarkersQuerySchema>;

export const changeMarkerSchema = z
  .object({
    /** The audit log entry's id. */
    id: z.number().int(),
    /** When the change was saved (ISO 8601 UTC). */
    at: z.string(),
    /** Who saved it; null for a change made without a signed-in user. */
    user: z.string().nullable(),
    action: z.enum(CHANGE_MARKER_ACTIONS),
    /** config_item, template, token_budget or model_price. */
    resource_type: z.string(),
    /** What the changed item was called when it changed (a personality's name, a provider, a model). */
    resource_name: z.string().nullable(),
    /** One sentence a person reads on the marker: "Updated personalities item 'Lumi' (content, tags)". */
    summary: z.string(),
    /** The version (revision) the change made, for templates and configuration items; null otherwise. */
    version: z.number().int().nullable(),
    /**
     * Where the console shows the changed item, as a path of the console (below its /admin base) with its
     * query, e.g. `/config?tab=personalities&q=Lumi`; null once the item is gone.
     */
    link: z.string().nullable(),
  })
  .meta({ id: 'ChangeMarker' });
export type ChangeMarker = z.infer<typeof changeMarkerSchema>;

export const changeMarkersSchema = z
  .object({
    /** The instants the answer covers: [from, to), whole UTC hours as the charts show them. */
    from: z.string(),
    to: z.string(),
    /** Oldest first. */
    changes: z.array(changeMarkerSchema),
    /** True when the range held more than CHANGE_MARKERS_MAX changes; the newest are kept. */
    truncated: z.boolean(),
  })
  .meta({ id: 'ChangeMarkers' });
export type ChangeMarkers = z.infer<typeof changeMarkersSchema>;

/** The panels whose numbers download as CSV: GET /metrics/export/{panel}.csv. */
export const METRICS_EXPORT_PANELS = ['usage', 'top-chats', 'top-users', 'integrations'] as const;
export type MetricsExportPanel = (typeof METRICS_EXPORT_PANELS)[number];

export const metricsExportParamsSchema = z.object({
  panel: z.enum(METRICS_EXPORT_PANELS, {
    error: `Unknown panel. Panels: ${METRICS_EXPORT_PANELS.join(', ')}`,
  }),
});
export const metricsExportQuerySchema = llmRangeQuerySchema;
export type MetricsExportQuery = z.infer<typeof metricsExportQuerySchema>;

/** The header row of each panel's file, in column order. */
export const METRICS_EXPORT_COLUMNS = {
  usage: [
    'day',
    'provider',
    'model',
    'feature',
    'requests',
    'failed_requests',
    'input_tokens',
    'output_tokens',
    'cost_usd',
  ],
  'top-chats': ['chat_id', 'requests', 'tokens', 'cost_usd'],
  'top-users': ['user_id', 'requests', 'tokens', 'cost_usd'],
  integrations: [
    'service_name',
    'total_calls',
    'success_count',
    'error_count',
    'success_rate',
    'last_api_call',
    'last_status',
  ],
} as const satisfies Record<MetricsExportPanel, readonly string[]>;

/** The chat (user) column of the row that sums the chats each finished day folded out of its top list. */
export const METRICS_EXPORT_OTHER = 'other';
