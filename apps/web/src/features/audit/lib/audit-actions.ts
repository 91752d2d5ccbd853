import { AUDIT_ACTIONS, type AuditLog } from '@lumi/contract';

type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Readable words for each audited action; the raw code is shown beside them. */
const ACTION_LABELS: Record<AuditAction, string> = {
  'auth.login': 'Signed in',
  'auth.login_failed': 'Failed to sign in',
  'auth.logout': 'Signed out',
  'auth.refresh_reuse': 'Reused a refresh token (session revoked)',
  'auth.password_changed': 'Changed password',
  'auth.throttled': 'Sign-in throttled',
  'auth.two_factor_setup': 'Started two-factor setup',
  'auth.two_factor_enabled': 'Turned on two-factor sign-in',
  'auth.two_factor_disabled': 'Turned off two-factor sign-in',
  'auth.two_factor_challenged': 'Entered the right password; asked for a two-factor code',
  'auth.two_factor_failed': 'Failed a two-factor code',
  'auth.session_revoked': 'Signed out a session',
  'auth.other_sessions_revoked': 'Signed out all other sessions',
  'profile.updated': 'Updated profile',
  'user.created': 'Created user',
  'user.updated': 'Updated user',
  'user.deleted': 'Deleted user',
  'user.two_factor_reset': 'Reset two-factor sign-in',
  'user.sessions_revoked': 'Signed a user out everywhere',
  'user.password_reset': 'Set a temporary password',
  'role.created': 'Created role',
  'role.updated': 'Updated role',
  'role.deleted': 'Deleted role',
  'config.created': 'Created configuration item',
  'config.updated': 'Updated configuration item',
  'config.deleted': 'Deleted configuration item',
  'config.restored': 'Restored configuration item',
  'config.imported': 'Imported configuration',
  'api_key.created': 'Created API key',
  'api_key.revoked': 'Revoked API key',
  'api_key.content_changed': 'Changed content capture of API key',
  'token_budget.created': 'Created token budget',
  'token_budget.updated': 'Updated token budget',
  'token_budget.deleted': 'Deleted token budget',
  'model_price.set': 'Set model price',
  'model_price.deleted': 'Removed model price',
  'limit.created': 'Created limit',
  'limit.updated': 'Updated limit',
  'limit.deleted': 'Deleted limit',
  'access_rule.created': 'Banned or allowlisted a chat or user',
  'access_rule.deleted': 'Deleted a ban or allowlist entry',
  'channel.created': 'Created channel',
  'channel.updated': 'Updated channel',
  'channel.deleted': 'Deleted channel',
  'topic.created': 'Created topic',
  'topic.updated': 'Updated topic',
  'topic.deleted': 'Deleted topic',
  'template.created': 'Created message template',
  'template.updated': 'Updated message template',
  'template.deleted': 'Deleted message template',
  'template.restored': 'Restored message template version',
  'template.test_sent': 'Sent a test message',
  'variable.created': 'Created template variable',
  'variable.updated': 'Updated template variable',
  'variable.deleted': 'Deleted template variable',
  'delivery.queued': 'Queued a delivery',
  'delivery.cancelled': 'Cancelled a delivery',
  'delivery.retried': 'Retried a delivery',
  'delivery.refused': 'Asked for a delivery that was refused',
  'schedule.created': 'Created message schedule',
  'schedule.updated': 'Updated message schedule',
  'schedule.deleted': 'Deleted message schedule',
  'alert_rule.created': 'Created alert rule',
  'alert_rule.updated': 'Updated alert rule',
  'alert_rule.deleted': 'Deleted alert rule',
  'alert_contact_point.created': 'Created alert contact point',
  'alert_contact_point.updated': 'Updated alert contact point',
  'alert_contact_point.deleted': 'Deleted alert contact point',
  'alert_silence.created': 'Created alert silence',
  'alert_silence.updated': 'Updated alert silence',
  'alert_silence.deleted': 'Deleted alert silence',
  'audit.exported': 'Exported the audit log',
  'metrics.exported': 'Exported a metrics panel',
  'llm_call.content_viewed': 'Read the content of an LLM call',
};

function isKnownAction(action: string): action is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(action);
}

/** 'user.created' reads 'Created user'; an action added later still reads sensibly ('Config item updated'). */
export function describeAction(action: string): string {
  if (isKnownAction(action)) return ACTION_LABELS[action];
  const words = action.replace(/[._]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Who did it: the actor's username; without one, 'System' for events that came from no request (such as
 * creating the first admin at start-up, which has no IP address) and 'Anonymous' for the rest.
 */
export function describeActor(log: Pick<AuditLog, 'user' | 'ip_address'>): string {
  if (log.user) return log.user;
  return log.ip_address ? 'Anonymous' : 'System';
}

/** A resource type in words: 'alert_contact_point' reads 'Alert contact point'. */
export function describeResourceType(type: string): string {
  const words = type.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
