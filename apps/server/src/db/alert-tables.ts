import type {
  AlertNoData,
  AlertNotificationKind,
  AlertNotificationStatus,
  AlertSeverity,
  AlertState,
  ContactPointType,
  SilenceKind,
} from '@lumi/contract';
import type { Generated, Selectable } from 'kysely';

/**
 * The tables of alerting (migration 20261126090000-alerts). Same conventions as database.ts: ISO 8601 UTC
 * text timestamps, 0/1 booleans, JSON as text.
 */
export interface AlertTables {
  alert_rules: AlertRulesTable;
  alert_rule_contact_points: AlertRuleContactPointsTable;
  alert_contact_points: AlertContactPointsTable;
  alert_silences: AlertSilencesTable;
  alert_history: AlertHistoryTable;
  alert_notifications: AlertNotificationsTable;
}

/** A rule's settings, and its state after the latest evaluation (written by the evaluation pass only). */
export interface AlertRulesTable {
  id: Generated<number>;
  name: string;
  /** JSON text: the AlertCondition. */
  condition: string;
  severity: AlertSeverity;
  pending_seconds: number;
  no_data: AlertNoData;
  renotify_minutes: number;
  notify_on_resolve: number;
  enabled: number;
  created_at: string;
  updated_at: string;
  updated_by: string | null;
  state: Generated<AlertState>;
  state_since: string | null;
  /** When the condition started to hold, while pending or firing. */
  pending_since: string | null;
  last_notified_at: string | null;
  /** JSON text: the latest AlertEvaluation. */
  last_evaluation: string | null;
  last_evaluated_at: string | null;
}

export interface AlertRuleContactPointsTable {
  rule_id: number;
  contact_point_id: number;
}

export interface AlertContactPointsTable {
  id: Generated<number>;
  name: string;
  type: ContactPointType;
  channel_id: number | null;
  topic_id: number | null;
  template_id: number | null;
  url: string | null;
  /** A webhook's signing secret (HMAC-SHA256), shown once when it is made. */
  secret: string | null;
  created_at: string;
  updated_at: string;
  updated_by: string | null;
}

export interface AlertSilencesTable {
  id: Generated<number>;
  kind: SilenceKind;
  rule_id: number | null;
  severity: AlertSeverity | null;
  comment: string;
  starts_at: string | null;
  ends_at: string | null;
  /** JSON array of weekday names, for a recurring silence. */
  weekdays: string | null;
  start_time: string | null;
  duration_minutes: number | null;
  timezone: string | null;
  created_at: string;
  created_by: string | null;
}

/** A state change of a rule; the rule's name and severity are copied so the entry outlives it. */
export interface AlertHistoryTable {
  id: Generated<number>;
  rule_id: number;
  rule_name: string;
  severity: AlertSeverity;
  from_state: AlertState;
  to_state: AlertState;
  value: number | null;
  threshold: number | null;
  summary: string;
  silenced: number;
  at: string;
}

/** One notification to one contact point. */
export interface AlertNotificationsTable {
  id: Generated<number>;
  contact_point_id: number;
  rule_id: number | null;
  rule_name: string | null;
  kind: AlertNotificationKind;
  status: AlertNotificationStatus;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  response_status: number | null;
  error: string | null;
  delivery_id: number | null;
  /** JSON text: the AlertWebhookBody, which the Telegram data is made from too. */
  body: string;
  created_at: string;
  sent_at: string | null;
}

export type AlertRuleRow = Selectable<AlertRulesTable>;
export type AlertContactPointRow = Selectable<AlertContactPointsTable>;
export type AlertSilenceRow = Selectable<AlertSilencesTable>;
export type AlertHistoryRow = Selectable<AlertHistoryTable>;
export type AlertNotificationRow = Selectable<AlertNotificationsTable>;
