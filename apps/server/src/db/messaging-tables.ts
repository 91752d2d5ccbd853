import type {
  DeliveryAttemptOutcome,
  DeliverySource,
  DeliveryStatus,
  MessageType,
  ScheduleDataSource,
  ScheduleRunOutcome,
  ParseMode,
} from '@lumi/contract';
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { VersionedColumns, VersionHistoryColumns } from './database.js';

/**
 * The tables of Telegram channels, topics, message templates, their versions and test sends, and the
 * template variable catalogue (migration 20261122130000-messaging). Same conventions as database.ts:
 * ISO 8601 UTC text timestamps, 0/1 booleans, JSON as text.
 */
export interface MessagingTables {
  messaging_channels: MessagingChannelsTable;
  messaging_topics: MessagingTopicsTable;
  messaging_templates: MessagingTemplatesTable;
  messaging_template_versions: MessagingTemplateVersionsTable;
  messaging_variables: MessagingVariablesTable;
  messaging_test_sends: MessagingTestSendsTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  telegram_send_state: TelegramSendStateTable;
  messaging_schedules: MessagingSchedulesTable;
  messaging_schedule_versions: MessagingScheduleVersionsTable;
}

/** Deliveries (migration 20261125120000-deliveries): one message to send, with every send option. */
export interface DeliveriesTable {
  id: Generated<number>;
  status: DeliveryStatus;
  source: DeliverySource;
  /** Who asked, as idempotency keys are scoped: 'user:3', 'key:5' or 'schedule:7'. */
  requester_key: string;
  requested_by: string | null;
  template_id: number;
  template_name: string;
  template_version: number;
  schedule_id: number | null;
  schedule_run_at: string | null;
  channel_id: number;
  channel_name: string;
  chat_id: string;
  topic_id: number | null;
  /** The topic's name when it was queued (null without a topic). */
  topic_name: string | null;
  message_thread_id: number | null;
  text: string;
  parse_mode: ParseMode;
  disable_web_preview: number;
  disable_notification: number;
  pin: number;
  /** A message sent in parts: each part's text and entities, as JSON (null: sent whole). */
  parts: string | null;
  /** How many of the parts Telegram has taken (null: sent whole). */
  parts_sent: number | null;
  /** JSON text: the data it was rendered with. */
  data: string;
  idempotency_key: string | null;
  idempotency_expires_at: string | null;
  send_at: string;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  telegram_message_id: ColumnType<string | number | null, number | null, number | null>;
  pinned: Generated<number>;
  error: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
}
export type DeliveryRow = Selectable<DeliveriesTable>;

export interface DeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  chat_id: string;
  /** The instance that made the attempt. */
  instance: string;
  outcome: DeliveryAttemptOutcome;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  error_code: number | null;
  error: string | null;
  retry_after_seconds: number | null;
  /** The part of a message sent in parts this attempt sent, from 1. */
  part: number | null;
}
export type DeliveryAttemptRow = Selectable<DeliveryAttemptsTable>;

/** One row (id 1): the whole bot's pause after Telegram answered 429. */
export interface TelegramSendStateTable {
  id: number;
  paused_until: string | null;
  pause_reason: string | null;
}

export interface MessagingChannelsTable {
  id: Generated<number>;
  channel_name: string;
  /** lower(channel_name): names are unique without regard to case. */
  channel_name_key: string;
  /** A numeric chat id or an @username, as Telegram's chat_id takes it. */
  chat_id: string;
  enabled: number;
  description: string;
  send_problem: string | null;
  send_problem_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface MessagingTopicsTable {
  id: Generated<number>;
  channel_id: number;
  topic_name: string;
  topic_name_key: string;
  message_thread_id: number;
  enabled: number;
  created_at: string;
  updated_at: string;
}

export interface MessagingTemplatesTable extends VersionedColumns {
  template_name: string;
  /** lower(template_name): unique among the templates not deleted, without regard to case. */
  template_name_key: string;
  /** Null only on a deleted template whose channel was deleted after it (20261124200000). */
  channel_id: number | null;
  topic_id: number | null;
  template_content: string;
  message_type: MessageType;
  parse_mode: ParseMode;
  disable_web_preview: number;
  disable_notification: number;
  allow_pinning: number;
  pin_by_default: number;
  split_long_messages: Generated<number>;
  enabled: number;
  description: string;
  /** Set when the template is deleted: it is then kept for its versions and test sends, and seen nowhere. */
  deleted_at: string | null;
  deleted_by: string | null;
}

export interface MessagingTemplateVersionsTable extends VersionHistoryColumns {
  template_id: number;
  version: number;
}

export interface MessagingVariablesTable {
  id: Generated<number>;
  variable_name: string;
  data_type: string;
  description: string;
  category: string;
  example_value: string | null;
  /** JSON array of helper names. */
  available_helpers: string;
  created_at: string;
  updated_at: string;
}

/** A bigint column: PostgreSQL's driver reads it as a string, SQLite as a number. */
type BigIntColumn = ColumnType<number | string, number, number>;

export interface MessagingTestSendsTable {
  id: Generated<number>;
  template_id: number;
  template_version: number;
  user_id: number | null;
  username: string | null;
  /** Channel and topic as they were at the time: the history outlives renames and deletions. */
  channel_id: number | null;
  channel_name: string | null;
  chat_id: string | null;
  topic_id: number | null;
  message_thread_id: number | null;
  success: number;
  telegram_message_id: BigIntColumn | null;
  pinned: number;
  error: string | null;
  created_at: string;
}

export type ChannelRow = Selectable<MessagingChannelsTable>;
export type TopicRow = Selectable<MessagingTopicsTable>;
export type TemplateRow = Selectable<MessagingTemplatesTable>;
export type TemplateVersionRow = Selectable<MessagingTemplateVersionsTable>;
export type VariableRow = Selectable<MessagingVariablesTable>;
export type TestSendRow = Selectable<MessagingTestSendsTable>;

/** Schedules (migration 20261125130000-schedules): versioned fields, then the scheduler's state. */
export interface MessagingSchedulesTable extends VersionedColumns {
  name: string;
  template_id: number;
  channel_id: number | null;
  topic_id: number | null;
  /** JSON text: the recurrence as the contract has it. */
  recurrence: string;
  timezone: string;
  data_source: ScheduleDataSource;
  /** JSON text: the fixed data. */
  data: string;
  ends_at: string | null;
  max_runs: number | null;
  enabled: number;
  /** Every run time at or before it has been handled. */
  handled_until: string;
  next_run_at: string | null;
  run_count: Generated<number>;
  last_run_at: string | null;
  last_outcome: ScheduleRunOutcome | null;
  last_delivery_id: number | null;
  last_detail: string | null;
}
export type ScheduleRow = Selectable<MessagingSchedulesTable>;

export interface MessagingScheduleVersionsTable extends VersionHistoryColumns {
  schedule_id: number;
  version: number;
}
