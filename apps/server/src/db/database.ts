import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { AlertTables } from './alert-tables.js';
import type { LimitTables } from './limit-tables.js';
import type { MessagingTables } from './messaging-tables.js';
import type { TelemetryTables } from './telemetry-tables.js';

/**
 * The database or a transaction of it. Transactions are passed one way everywhere: as the first argument.
 * A repository function takes the executor and never opens a transaction; a service opens the transaction
 * of a change and hands it to every repository function, and every other service's method, that takes part
 * in it (`roles.requireRoles(trx, ids)`), so the change commits or rolls back as one. What routes call
 * takes no executor: the service uses its own database.
 */
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The schema as Kysely sees it. Both databases store timestamps as ISO 8601 UTC text
 * (`2026-11-22T09:40:00.000Z`, fixed width, so text order is time order) and booleans as 0/1 integers,
 * which keeps every query identical on SQLite and PostgreSQL.
 */
export interface Database extends TelemetryTables, MessagingTables, AlertTables, LimitTables {
  roles: RolesTable;
  users: UsersTable;
  user_roles: UserRolesTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  login_failures: LoginFailuresTable;
  two_factor_challenges: TwoFactorChallengesTable;
  recovery_codes: RecoveryCodesTable;
  audit_logs: AuditLogsTable;
  config_items: ConfigItemsTable;
  config_item_revisions: ConfigItemRevisionsTable;
  job_leases: JobLeasesTable;
}

/** Which instance runs each periodic job (modules/cluster/job-scheduler.ts). */
export interface JobLeasesTable {
  name: string;
  /** The instance holding the lease; null once released. */
  holder: string | null;
  acquired_at: string | null;
  expires_at: string | null;
  last_run_at: string | null;
  last_run_by: string | null;
  last_duration_ms: number | null;
  last_error: string | null;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  description: string;
  /** JSON array of permission names. */
  permissions: string;
  built_in: number;
  /** 1: its users must sign in with two factors. */
  require_two_factor: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** lower(username): uniqueness and look-ups ignore case. */
  username_key: string;
  email: string;
  email_key: string;
  name: string;
  password_hash: string;
  is_active: number;
  last_login: string | null;
  created_at: string;
  updated_at: string;
  /** 1: signed in with a temporary password an admin set; must change it before anything else. */
  must_change_password: Generated<number>;
  /** The enabled TOTP secret, encrypted (two-factor.crypto.ts); null while two-factor sign-in is off. */
  totp_secret: Generated<string | null>;
  /** A secret handed out by setup, encrypted, until a code confirms it. */
  totp_pending_secret: Generated<string | null>;
  totp_enabled_at: Generated<string | null>;
  /** The RFC 6238 time step of the last code accepted (a code is never accepted twice). */
  totp_last_step: Generated<number | null>;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
  ip_address: string | null;
  user_agent: string | null;
  /** The sign-in or latest refresh; null on sessions older than migration 20261128090000-two-factor. */
  last_used_at: Generated<string | null>;
}

export interface TwoFactorChallengesTable {
  /** SHA-256 of the challenge handed to the client. */
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface RecoveryCodesTable {
  user_id: number;
  /** SHA-256 of the normalised code (50 random bits): the code itself is never stored. */
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

export interface RefreshTokensTable {
  /** SHA-256 of the opaque token; the token itself is never stored. */
  token_hash: string;
  session_id: string;
  created_at: string;
  rotated_at: string | null;
  /** Set when a sibling handed out in the same grace period was used: presenting this one is reuse. */
  retired_at: string | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  username_key: string;
  ip_address: string;
  created_at: string;
}

export interface AuditLogsTable {
  id: Generated<number>;
  created_at: string;
  actor_id: number | null;
  actor_username: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  /** The resource's name at the time of the change; null on entries written before it was kept. */
  resource_name: string | null;
  old_value: string | null;
  new_value: string | null;
  ip_address: string | null;
  user_agent: string | null;
}

export type UserRow = Selectable<UsersTable>;
export type RoleRow = Selectable<RolesTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewAuditLog = Insertable<AuditLogsTable>;

/** The columns of every versioned entity's table (versioned-entity.ts). */
export interface VersionedColumns {
  id: Generated<number>;
  version: number;
  created_at: string;
  updated_at: string;
  updated_by: string | null;
}

/** The columns of every versioned entity's history table, a row for each version. */
export interface VersionHistoryColumns {
  id: Generated<number>;
  action: string;
  /** JSON array of the field names that differ from the version before. */
  changes: string;
  restored_from: number | null;
  /** JSON of the entity's snapshot fields at this version. */
  snapshot: string;
  created_at: string;
  updated_by: string | null;
}

export interface ConfigItemsTable extends VersionedColumns {
  domain: string;
  name: string;
  /** lower(name): names are unique within a domain without regard to case. */
  name_key: string;
  description: string;
  /** 'json' for an object (stored as JSON text) or 'text'. */
  content_type: string;
  content: string;
  is_active: number;
  /** JSON array of strings. */
  tags: string;
  priority: number;
}

export interface ConfigItemRevisionsTable extends VersionHistoryColumns {
  item_id: number;
  /** The item's version this revision keeps. */
  revision: number;
}

export type ConfigItemRow = Selectable<ConfigItemsTable>;
export type ConfigRevisionRow = Selectable<ConfigItemRevisionsTable>;
