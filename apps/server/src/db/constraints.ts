/**
 * What each unique and foreign key of the schema (db/migrations) means to the person whose write broke it,
 * so the error layer (plugins/errors.ts) answers a write that lost a race with a 409 in their words, on
 * both databases, and never with a constraint's name (engineering guide 4 and 18). A service checks the
 * rule first and answers the same way; the keys are what still holds when two requests check at once.
 *
 * PostgreSQL names the constraint; SQLite names a unique key by its table and columns ("UNIQUE constraint
 * failed: roles.name") and a foreign key not at all, so each unique key lists both. A constraint added to a
 * migration that a request can break gets its entry here; one without falls back to a generic 409.
 */

/** The request whose write failed: its path parameters and body, as validated. */
export interface RequestValues {
  params: unknown;
  body: unknown;
}

/** A value of the request by field name (body first, then path), when it has one. */
type Lookup = (field: string) => string | undefined;

interface UniqueKey {
  kind: 'unique';
  table: string;
  columns: readonly string[];
  /** Says what is taken. */
  detail(value: Lookup): string;
}

interface ForeignKey {
  kind: 'foreign_key';
  /** The write points to a row that another request deleted meanwhile. */
  gone(value: Lookup): string;
  /** The delete is of a row that another request made something point to meanwhile. */
  inUse(value: Lookup): string;
}

/** A constraint the database refused a write for, as the error layer read it from the driver's error. */
export type Violation =
  | { kind: 'unique'; constraint?: string; table?: string; columns?: readonly string[] }
  | { kind: 'foreign_key'; constraint?: string; side: 'gone' | 'in_use' };

const named = (what: string, value: string | undefined, fallback: string) =>
  value === undefined ? fallback : `${what} '${value}'`;

const VERSION_TAKEN =
  'Someone else saved it at the same time. Reload to see their change, then make yours again.';

const unique = (table: string, columns: readonly string[], detail: UniqueKey['detail']): UniqueKey => ({
  kind: 'unique',
  table,
  columns,
  detail,
});

const foreign = (gone: ForeignKey['gone'], inUse: ForeignKey['inUse']): ForeignKey => ({
  kind: 'foreign_key',
  gone,
  inUse,
});

/** Keyed by the constraint's name on PostgreSQL (a unique index's name where it is a partial index). */
export const CONSTRAINTS: Record<string, UniqueKey | ForeignKey> = {
  // Unique keys
  roles_name_key: unique(
    'roles',
    ['name'],
    (v) => `${named('A role named', v('name'), 'A role with that name')} already exists`,
  ),
  users_username_key_key: unique('users', ['username_key'], (v) =>
    v('username') === undefined
      ? 'The username is already taken'
      : `The username ${v('username')} is already taken`,
  ),
  users_email_key_key: unique('users', ['email_key'], (v) =>
    v('email') === undefined
      ? 'The email address is already used by another user'
      : `The email ${v('email')} is already used by another user`,
  ),
  config_items_domain_name_uq: unique('config_items', ['domain', 'name_key'], (v) => {
    const item = `A ${v('domain') ?? 'configuration'} item`;
    const name = v('name');
    return name === undefined
      ? `${item} with that name was created by another request meanwhile. Try again.`
      : `${item} named '${name}' already exists`;
  }),
  config_item_revisions_uq: unique('config_item_revisions', ['item_id', 'revision'], () => VERSION_TAKEN),
  token_budgets_pkey: unique('token_budgets', ['provider'], (v) =>
    v('provider') === undefined
      ? 'There is a budget for that provider already; change it instead'
      : `There is a budget for '${v('provider')}' already; change it instead`,
  ),
  messaging_channels_channel_name_key_key: unique(
    'messaging_channels',
    ['channel_name_key'],
    (v) => `${named('A channel named', v('channel_name'), 'A channel with that name')} already exists`,
  ),
  messaging_topics_name_uq: unique(
    'messaging_topics',
    ['channel_id', 'topic_name_key'],
    (v) => `This channel already has ${named('a topic named', v('topic_name'), 'a topic with that name')}`,
  ),
  messaging_topics_thread_uq: unique('messaging_topics', ['channel_id', 'message_thread_id'], (v) =>
    v('message_thread_id') === undefined
      ? 'This channel already has a topic with that message thread'
      : `This channel already has a topic with message thread ${v('message_thread_id')}`,
  ),
  messaging_templates_name_uq: unique(
    'messaging_templates',
    ['template_name_key'],
    (v) =>
      `${named('A message template named', v('template_name'), 'A message template with that name')} already exists`,
  ),
  messaging_template_versions_uq: unique(
    'messaging_template_versions',
    ['template_id', 'version'],
    () => VERSION_TAKEN,
  ),
  messaging_variables_variable_name_key: unique(
    'messaging_variables',
    ['variable_name'],
    (v) =>
      `The catalogue already has ${named('a variable named', v('variable_name'), 'a variable with that name')}`,
  ),
  messaging_schedule_versions_uq: unique(
    'messaging_schedule_versions',
    ['schedule_id', 'version'],
    () => VERSION_TAKEN,
  ),
  limits_subject_uq: unique(
    'limits',
    ['scope', 'subject', 'metric', 'window'],
    () => 'There is a limit on that subject, metric and window already; change it instead',
  ),
  access_rules_subject_uq: unique('access_rules', ['subject_kind', 'subject'], (v) =>
    v('subject') === undefined
      ? 'That chat or user has a ban or allowlist entry already; delete it first'
      : `${v('subject_kind') === 'user' ? 'User' : 'Chat'} ${v('subject')} has a ban or allowlist entry already; delete it first`,
  ),
  deliveries_idempotency_uq: unique(
    'deliveries',
    ['requester_key', 'idempotency_key'],
    () => 'A request with this idempotency key is still being handled; send it again to get its answer',
  ),

  // Foreign keys whose rows requests delete (the rest cascade, or are never deleted by a request)
  messaging_templates_channel_id_fkey: foreign(
    (v) =>
      `${v('channel_id') === undefined ? 'The channel' : `The channel ${v('channel_id')}`} was deleted meanwhile; choose another channel`,
    () => 'A template was added to the channel meanwhile. Move it to another channel or delete it first.',
  ),
  messaging_templates_topic_id_fkey: foreign(
    (v) =>
      `${v('topic_id') === undefined ? 'The topic' : `The topic ${v('topic_id')}`} was deleted meanwhile; choose another topic`,
    () => 'A template was added to the topic meanwhile. Choose another topic for it or delete it first.',
  ),
  messaging_topics_channel_id_fkey: foreign(
    () => 'The channel was deleted meanwhile',
    () => 'A topic was added to the channel meanwhile; try again',
  ),
  user_roles_role_id_fkey: foreign(
    () => 'One of the roles was deleted meanwhile; reload the roles and choose again',
    () => 'The role was given to a user meanwhile; remove it from them first',
  ),
  user_roles_user_id_fkey: foreign(
    () => 'The user was deleted meanwhile',
    () => 'The user was given a role meanwhile; try again',
  ),
  alert_rule_contact_points_contact_point_id_fkey: foreign(
    () => 'One of the contact points was deleted meanwhile; reload them and choose again',
    () =>
      'A rule was set to notify the contact point meanwhile. Choose another contact point for it or delete it first.',
  ),
  alert_rule_contact_points_rule_id_fkey: foreign(
    () => 'The alert rule was deleted meanwhile',
    () => 'The alert rule changed meanwhile; try again',
  ),
  alert_silences_rule_id_fkey: foreign(
    (v) =>
      `${v('rule_id') === undefined ? 'The alert rule' : `The alert rule ${v('rule_id')}`} was deleted meanwhile; choose another rule`,
    () => 'A silence was added to the alert rule meanwhile; try again',
  ),
};

/** SQLite's name for a unique key: its table and columns. */
const sqliteKey = (table: string, columns: readonly string[]) => `${table}(${columns.join(',')})`;

const BY_COLUMNS = new Map(
  Object.values(CONSTRAINTS).flatMap((entry) =>
    entry.kind === 'unique' ? [[sqliteKey(entry.table, entry.columns), entry] as const] : [],
  ),
);

function entryOf(violation: Violation): UniqueKey | ForeignKey | undefined {
  const byName = violation.constraint === undefined ? undefined : CONSTRAINTS[violation.constraint];
  if (byName?.kind === violation.kind) return byName;
  if (violation.kind === 'unique' && violation.table !== undefined && violation.columns !== undefined) {
    return BY_COLUMNS.get(sqliteKey(violation.table, violation.columns));
  }
  return undefined;
}

function lookup(request: RequestValues): Lookup {
  const from = (source: unknown, field: string) => {
    if (typeof source !== 'object' || source === null) return undefined;
    const value = (source as Record<string, unknown>)[field];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  };
  return (field) => from(request.body, field) ?? from(request.params, field);
}

/**
 * The detail of the 409 for `violation`, naming what clashed with the request's own values where it has
 * them; `known` is false for a constraint this table does not describe.
 */
export function describeViolation(
  violation: Violation,
  request: RequestValues,
): { detail: string; known: boolean } {
  const entry = entryOf(violation);
  const value = lookup(request);
  if (entry?.kind === 'unique') return { detail: entry.detail(value), known: true };
  if (entry?.kind === 'foreign_key') {
    return {
      detail:
        violation.kind === 'foreign_key' && violation.side === 'in_use'
          ? entry.inUse(value)
          : entry.gone(value),
      known: true,
    };
  }
  if (violation.kind === 'unique') {
    return {
      detail: 'That is taken: another request made the same change meanwhile. Reload and try again.',
      known: false,
    };
  }
  return {
    detail:
      violation.side === 'in_use'
        ? 'Something was made to refer to it meanwhile. Reload to see what, then try again.'
        : 'Something it refers to was deleted meanwhile. Reload and try again.',
    known: false,
  };
}
