import type { MessageType, ParseMode } from '@lumi/contract';
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
