import type {
  AccessAction,
  AccessSubjectKind,
  AllowanceReason,
  LimitMetric,
  LimitMode,
  LimitScope,
  LimitWindow,
} from '@lumi/contract';
import type { Generated } from 'kysely';
import type { Int8 } from './telemetry-tables.js';

/**
 * The tables of spend and abuse control (migration 20261207090000-limits; docs/operators/limits.md). Same
 * conventions as database.ts: ISO 8601 UTC text timestamps, bigint counts, double precision money.
 */
export interface LimitTables {
  limits: LimitsTable;
  access_rules: AccessRulesTable;
  limit_usage: LimitUsageTable;
  limit_grants: LimitGrantsTable;
  limit_denials: LimitDenialsTable;
}

export interface LimitsTable {
  id: Generated<number>;
  scope: LimitScope;
  /** The chat id, user id or feature; '' for each_chat and each_user. */
  subject: string;
  metric: LimitMetric;
  window: LimitWindow;
  amount: number;
  mode: LimitMode;
  raise_amount: number | null;
  raise_until: string | null;
  note: string;
  created_at: string;
  created_by: string | null;
  updated_at: string;
  updated_by: string | null;
}

export interface AccessRulesTable {
  id: Generated<number>;
  action: AccessAction;
  subject_kind: AccessSubjectKind;
  subject: string;
  reason: string;
  expires_at: string | null;
  created_at: string;
  created_by: string | null;
}

/** What a subject's usage is counted under: a chat, a user or a feature. */
export type UsageKind = 'chat' | 'user' | 'feature';
/** UTC minutes and hours, each named by its start as ISO 8601 text (lib/hour-buckets.ts). */
export type UsageGrain = 'minute' | 'hour';

interface UsageKey {
  kind: UsageKind;
  subject: string;
  grain: UsageGrain;
  bucket: string;
}

export interface LimitUsageTable extends UsageKey {
  requests: Int8;
  tokens: Int8;
  cost_usd: number;
}

export interface LimitGrantsTable extends UsageKey {
  granted: Int8;
}

export interface LimitDenialsTable {
  id: Generated<number>;
  ts: string;
  chat_id: string | null;
  user_id: string | null;
  feature: string | null;
  reason: AllowanceReason;
  limit_id: number | null;
}
