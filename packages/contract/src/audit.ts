import { z } from 'zod';
import { idText, wholeNumberText } from './fields.js';

export const AUDIT_LIMIT_DEFAULT = 50;
export const AUDIT_LIMIT_MAX = 200;

export const auditLogSchema = z
  .object({
    id: z.number().int(),
    action: z.string(),
    /** The actor's username, or null for anonymous events such as a failed sign-in. */
    user: z.string().nullable(),
    timestamp: z.string(),
    resource_type: z.string(),
    resource_id: z.string().nullable(),
    /**
     * The resource's name when the entry was written (a username, a config item's name…), so a deleted
     * resource still reads well; null for entries older than it and for resources without a name.
     */
    resource_name: z.string().nullable(),
    /**
     * What a user, configuration item or template is called now, while it still exists (a deleted
     * template no longer does); null otherwise and for other resources. The console links by it.
     */
    resource_current_name: z.string().nullable(),
    old_value: z.unknown().nullable(),
    new_value: z.unknown().nullable(),
    ip_address: z.string().nullable(),
    user_agent: z.string().nullable(),
  })
  .meta({ id: 'AuditLog' });
export type AuditLog = z.infer<typeof auditLogSchema>;

export const auditQuerySchema = z.object({
  limit: wholeNumberText().pipe(z.number().int().min(1).max(AUDIT_LIMIT_MAX)).default(AUDIT_LIMIT_DEFAULT),
  cursor: idText.optional(),
  action: z.string().trim().max(100).optional(),
  resource_type: z.string().trim().max(100).optional(),
  user: z.string().trim().max(100).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditListResponseSchema = z.object({
  logs: z.array(auditLogSchema),
  /** Pass as `cursor` to get the next (older) page; null when there is none. */
  next_cursor: z.number().int().nullable(),
});
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;

/** The kinds of resource audit entries are about, so the log's filter offers each of them. */
export const AUDIT_RESOURCE_TYPES = [
  'access_rule',
  'alert_contact_point',
  'alert_rule',
  'alert_silence',
  'api_key',
  'audit_log',
  'channel',
  'config_item',
  'delivery',
  'limit',
  'llm_call',
  'metrics',
  'model_price',
  'role',
  'schedule',
  'session',
  'template',
  'token_budget',
  'topic',
  'user',
  'variable',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

/** Names of audited actions, so filters and the console agree. */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.logout',
  'auth.refresh_reuse',
  'auth.password_changed',
  'auth.throttled',
  'auth.two_factor_setup',
  'auth.two_factor_enabled',
  'auth.two_factor_disabled',
  'auth.two_factor_challenged',
  'auth.two_factor_failed',
  'auth.session_revoked',
  'auth.other_sessions_revoked',
  'profile.updated',
  'user.created',
  'user.updated',
  'user.deleted',
  'user.two_factor_reset',
  'user.sessions_revoked',
  'user.password_reset',
  'role.created',
  'role.updated',
  'role.deleted',
  'config.created',
  'config.updated',
  'config.deleted',
  'config.restored',
  'config.imported',
  'api_key.created',
  'api_key.revoked',
  'api_key.content_changed',
  'token_budget.created',
  'token_budget.updated',
  'token_budget.deleted',
  'model_price.set',
  'model_price.deleted',
  'limit.created',
  'limit.updated',
  'limit.deleted',
  'access_rule.created',
  'access_rule.deleted',
  'channel.created',
  'channel.updated',
  'channel.deleted',
  'topic.created',
  'topic.updated',
  'topic.deleted',
  'template.created',
  'template.updated',
  'template.deleted',
  'template.restored',
  'template.test_sent',
  'variable.created',
  'variable.updated',
  'variable.deleted',
  'delivery.queued',
  'delivery.cancelled',
  'delivery.retried',
  'delivery.refused',
  'schedule.created',
  'schedule.updated',
  'schedule.deleted',
  'alert_rule.created',
  'alert_rule.updated',
  'alert_rule.deleted',
  'alert_contact_point.created',
  'alert_contact_point.updated',
  'alert_contact_point.deleted',
  'alert_silence.created',
  'alert_silence.updated',
  'alert_silence.deleted',
  'audit.exported',
  'metrics.exported',
  'llm_call.content_viewed',
] as const;

/** The audit log's download formats: CSV for spreadsheets, JSON Lines (one entry a line) for scripts. */
export const AUDIT_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];

/** GET /admin/audit-logs/export: the list's filters, every entry they match (no limit, no cursor). */
export const auditExportQuerySchema = auditQuerySchema.omit({ limit: true, cursor: true }).extend({
  format: z.enum(AUDIT_EXPORT_FORMATS).default('csv'),
});
export type AuditExportQuery = z.infer<typeof auditExportQuerySchema>;
