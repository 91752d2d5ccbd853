import { z } from 'zod';
import { idSchema, requiredName } from '../fields.js';
import { alertConditionAnswerSchema, alertConditionSchema, alertEvaluationSchema } from './conditions.js';
import { ALERT_LIMITS, ALERT_MESSAGES, ALERT_NO_DATA, ALERT_SEVERITIES, ALERT_STATES } from './constants.js';
import { nextStepSchema } from './next-steps.js';

/** Alert rules: their settings, answers and the Overview summary (docs/bot-developers/alerts.md). */

const pendingSeconds = z
  .number({ error: ALERT_MESSAGES.pendingSeconds })
  .int(ALERT_MESSAGES.pendingSeconds)
  .min(0, ALERT_MESSAGES.pendingSeconds)
  .max(ALERT_LIMITS.pendingSecondsMax, ALERT_MESSAGES.pendingSeconds);
const renotifyMinutes = z
  .number({ error: ALERT_MESSAGES.renotifyMinutes })
  .int(ALERT_MESSAGES.renotifyMinutes)
  .min(0, ALERT_MESSAGES.renotifyMinutes)
  .max(ALERT_LIMITS.renotifyMinutesMax, ALERT_MESSAGES.renotifyMinutes);

/**
 * A rule's fields (docs/bot-developers/alerts.md): the one list the create, update and audit shapes are built
 * from.
 */
const alertRuleFields = {
  name: requiredName(ALERT_MESSAGES.nameRequired, ALERT_LIMITS.nameMax, ALERT_MESSAGES.nameMax),
  condition: alertConditionSchema,
  severity: z.enum(ALERT_SEVERITIES),
  /** How long the condition must hold before the rule fires; 0 fires at once. */
  pending_seconds: pendingSeconds,
  no_data: z.enum(ALERT_NO_DATA),
  /** While firing, notify again this often; 0 never. */
  renotify_minutes: renotifyMinutes,
  notify_on_resolve: z.boolean(),
  contact_point_ids: z
    .array(idSchema)
    .max(ALERT_LIMITS.contactPointsPerRule, ALERT_MESSAGES.contactPointsMax)
    .transform((ids) => [...new Set(ids)]),
  enabled: z.boolean(),
};
export type AlertRuleField = keyof typeof alertRuleFields;
export const ALERT_RULE_FIELDS = Object.keys(alertRuleFields) as AlertRuleField[];

export const ALERT_RULE_DEFAULTS = {
  severity: 'warning',
  pending_seconds: 0,
  no_data: 'keep',
  renotify_minutes: 0,
  notify_on_resolve: true,
  contact_point_ids: [],
  enabled: true,
} as const;

export const alertRuleInputSchema = z.object({
  ...alertRuleFields,
  severity: alertRuleFields.severity.default(ALERT_RULE_DEFAULTS.severity),
  pending_seconds: pendingSeconds.default(ALERT_RULE_DEFAULTS.pending_seconds),
  no_data: alertRuleFields.no_data.default(ALERT_RULE_DEFAULTS.no_data),
  renotify_minutes: renotifyMinutes.default(ALERT_RULE_DEFAULTS.renotify_minutes),
  notify_on_resolve: z.boolean().default(ALERT_RULE_DEFAULTS.notify_on_resolve),
  contact_point_ids: alertRuleFields.contact_point_ids.default([]),
  enabled: z.boolean().default(ALERT_RULE_DEFAULTS.enabled),
});
export type AlertRuleInput = z.input<typeof alertRuleInputSchema>;
export type AlertRuleValues = z.output<typeof alertRuleInputSchema>;

/** PUT: fields left out keep their values. */
export const alertRuleUpdateSchema = z.object(alertRuleFields).partial();
export type AlertRuleUpdate = z.output<typeof alertRuleUpdateSchema>;

export const alertRuleSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    condition: alertConditionAnswerSchema,
    severity: z.enum(ALERT_SEVERITIES),
    pending_seconds: z.number().int(),
    no_data: z.enum(ALERT_NO_DATA),
    renotify_minutes: z.number().int(),
    notify_on_resolve: z.boolean(),
    contact_point_ids: z.array(z.number().int()),
    enabled: z.boolean(),
    /** The state after the latest evaluation (`ok` before the first: see `last_evaluated_at`). */
    state: z.enum(ALERT_STATES),
    /** When the rule entered its state. */
    state_since: z.string().nullable(),
    /** The latest evaluation; null before the first. */
    last_evaluation: alertEvaluationSchema.nullable(),
    /** When the rule was last evaluated; null while it never was, which an `ok` state alone cannot tell. */
    last_evaluated_at: z.string().nullable(),
    /** True while a silence covers the rule. */
    silenced: z.boolean(),
    /** What to do when it fires, and the screen that shows what to check first (next-steps.ts). */
    next_step: nextStepSchema,
    created_at: z.string(),
    updated_at: z.string(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'AlertRule' });
export type AlertRule = z.infer<typeof alertRuleSchema>;

/** A rule's settings as a create takes them: what an edit starts from, on the server and in the editor. */
export function alertRuleSettings(rule: AlertRule): AlertRuleValues {
  return {
    name: rule.name,
    condition: rule.condition,
    severity: rule.severity,
    pending_seconds: rule.pending_seconds,
    no_data: rule.no_data,
    renotify_minutes: rule.renotify_minutes,
    notify_on_resolve: rule.notify_on_resolve,
    contact_point_ids: rule.contact_point_ids,
    enabled: rule.enabled,
  };
}

export const alertRuleListResponseSchema = z.object({ rules: z.array(alertRuleSchema) });
export type AlertRuleListResponse = z.infer<typeof alertRuleListResponseSchema>;

/** "What would this evaluate to now": the editor's live line. */
export const alertPreviewRequestSchema = z.object({ condition: alertConditionSchema });
export type AlertPreviewRequest = z.input<typeof alertPreviewRequestSchema>;

/** Firing and pending rules, for the Overview banner. */
export const alertSummarySchema = z
  .object({
    firing: z.number().int(),
    pending: z.number().int(),
    /** The firing rules, critical first, then the longest firing. */
    firing_rules: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        severity: z.enum(ALERT_SEVERITIES),
        since: z.string().nullable(),
        summary: z.string().nullable(),
        /** True while a silence covers the rule: it fires but notifies nobody. */
        silenced: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'AlertSummary' });
export type AlertSummary = z.infer<typeof alertSummarySchema>;
