import { z } from 'zod';
import { idText, wholeNumberText } from '../fields.js';
import { ALERT_LIMITS, ALERT_SEVERITIES, ALERT_STATES } from './constants.js';

/** The alert history and the notification list query (docs/bot-developers/alerts.md). */

export const alertHistoryEntrySchema = z
  .object({
    id: z.number().int(),
    rule_id: z.number().int(),
    rule_name: z.string(),
    severity: z.enum(ALERT_SEVERITIES),
    from_state: z.enum(ALERT_STATES),
    to_state: z.enum(ALERT_STATES),
    /** The evaluation that caused the change. */
    value: z.number().nullable(),
    threshold: z.number().nullable(),
    summary: z.string(),
    /** True when a silence kept the change from notifying. */
    silenced: z.boolean(),
    at: z.string(),
  })
  .meta({ id: 'AlertHistoryEntry' });
export type AlertHistoryEntry = z.infer<typeof alertHistoryEntrySchema>;

export const alertHistoryQuerySchema = z.object({
  rule_id: idText.optional(),
  state: z.enum(ALERT_STATES).optional(),
  severity: z.enum(ALERT_SEVERITIES).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  cursor: idText.optional(),
  limit: wholeNumberText()
    .pipe(z.number().int().min(1).max(ALERT_LIMITS.historyMax))
    .default(ALERT_LIMITS.historyDefault),
});
export type AlertHistoryQuery = z.input<typeof alertHistoryQuerySchema>;

export const alertHistoryResponseSchema = z.object({
  entries: z.array(alertHistoryEntrySchema),
  /** Pass as `cursor` for the next (older) page; null when there is none. */
  next_cursor: z.number().int().nullable(),
});
export type AlertHistoryResponse = z.infer<typeof alertHistoryResponseSchema>;

export const alertNotificationListQuerySchema = z.object({
  cursor: idText.optional(),
  limit: wholeNumberText()
    .pipe(z.number().int().min(1).max(ALERT_LIMITS.notificationsMax))
    .default(ALERT_LIMITS.notificationsDefault),
});
