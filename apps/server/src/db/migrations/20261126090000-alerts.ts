import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { ALERT_VARIABLES } from '../../modules/messaging/variables/variables.seed.js';
import { idColumn } from './20261122090000-foundation.js';

type Db = Kysely<unknown>;

/** Permissions an installation's seeded roles get with alerts (new installations get them from SEEDED_ROLES). */
const ROLE_GRANTS: Record<string, string[]> = {
  operator: ['alerts:read', 'alerts:write'],
  viewer: ['alerts:read'],
};

/**
 * Alerts (docs/bot-developers/alerts.md):
 * - `alert_rules`: a rule's settings (the condition as JSON text) and its state after the latest
 *   evaluation (`state`, `state_since`, `pending_since`, `last_notified_at`, `last_evaluation` as JSON,
 *   `last_evaluated_at`), which only the evaluation pass writes; `last_evaluated_at` is also what a pass
 *   compares before it writes, so two passes never both act on one evaluation.
 * - `alert_rule_contact_points`: which contact points a rule notifies.
 * - `alert_contact_points`: a Telegram chat (channel, topic, template) or a webhook URL with its signing
 *   secret.
 * - `alert_silences`: once (from, until) or recurring (weekdays, start time, duration, time zone).
 * - `alert_history`: every state change with the value that caused it; the rule's id without a foreign key
 *   and its name and severity copied, so the history outlives the rule.
 * - `alert_notifications`: one per contact point told of a change, with a webhook's tries or the Telegram
 *   delivery that carries it.
 * Existing operator and viewer roles get the alert permissions, and a seeded variable catalogue the alert
 * variables (one of the same name the operator made is kept).
 */
export const alerts = (dialect: DialectName) => ({
  async up(db: Db) {
    const [idType, idBuilder] = idColumn(dialect);
    await db.schema
      .createTable('alert_contact_points')
      .addColumn('id', idType, idBuilder)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'integer')
      .addColumn('topic_id', 'integer')
      .addColumn('template_id', 'integer')
      .addColumn('url', 'text')
      .addColumn('secret', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .execute();

    await db.schema
      .createTable('alert_rules')
      .addColumn('id', idType, idBuilder)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('condition', 'text', (c) => c.notNull())
      .addColumn('severity', 'text', (c) => c.notNull())
      .addColumn('pending_seconds', 'integer', (c) => c.notNull())
      .addColumn('no_data', 'text', (c) => c.notNull())
      .addColumn('renotify_minutes', 'integer', (c) => c.notNull())
      .addColumn('notify_on_resolve', 'integer', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('ok'))
      .addColumn('state_since', 'text')
      .addColumn('pending_since', 'text')
      .addColumn('last_notified_at', 'text')
      .addColumn('last_evaluation', 'text')
      .addColumn('last_evaluated_at', 'text')
      .execute();

    await db.schema
      .createTable('alert_rule_contact_points')
      .addColumn('rule_id', 'integer', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
      .addColumn('contact_point_id', 'integer', (c) =>
        c.notNull().references('alert_contact_points.id').onDelete('restrict'),
      )
      .addPrimaryKeyConstraint('alert_rule_contact_points_pk', ['rule_id', 'contact_point_id'])
      .execute();
    await db.schema
      .createIndex('alert_rule_contact_points_cp_idx')
      .on('alert_rule_contact_points')
      .column('contact_point_id')
      .execute();

    await db.schema
      .createTable('alert_silences')
      .addColumn('id', idType, idBuilder)
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('rule_id', 'integer', (c) => c.references('alert_rules.id').onDelete('cascade'))
      .addColumn('severity', 'text')
      .addColumn('comment', 'text', (c) => c.notNull())
      .addColumn('starts_at', 'text')
      .addColumn('ends_at', 'text')
      .addColumn('weekdays', 'text')
      .addColumn('start_time', 'text')
      .addColumn('duration_minutes', 'integer')
      .addColumn('timezone', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .execute();

    await db.schema
      .createTable('alert_history')
      .addColumn('id', idType, idBuilder)
      .addColumn('rule_id', 'integer', (c) => c.notNull())
      .addColumn('rule_name', 'text', (c) => c.notNull())
      .addColumn('severity', 'text', (c) => c.notNull())
      .addColumn('from_state', 'text', (c) => c.notNull())
      .addColumn('to_state', 'text', (c) => c.notNull())
      .addColumn('value', 'double precision')
      .addColumn('threshold', 'double precision')
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('silenced', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    // The history's pages are newest first by id, filtered by rule, by state or by time.
    await db.schema
      .createIndex('alert_history_rule_idx')
      .on('alert_history')
      .columns(['rule_id', 'id'])
      .execute();
    await db.schema
      .createIndex('alert_history_state_idx')
      .on('alert_history')
      .columns(['to_state', 'id'])
      .execute();
    await db.schema.createIndex('alert_history_at_idx').on('alert_history').columns(['at', 'id']).execute();

    await db.schema
      .createTable('alert_notifications')
      .addColumn('id', idType, idBuilder)
      .addColumn('contact_point_id', 'integer', (c) =>
        c.notNull().references('alert_contact_points.id').onDelete('cascade'),
      )
      .addColumn('rule_id', 'integer')
      .addColumn('rule_name', 'text')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text')
      .addColumn('response_status', 'integer')
      .addColumn('error', 'text')
      .addColumn('delivery_id', 'integer')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .execute();
    // What the retry pass looks for: queued webhook notifications that are due.
    await db.schema
      .createIndex('alert_notifications_due_idx')
      .on('alert_notifications')
      .columns(['status', 'next_attempt_at', 'id'])
      .execute();
    await db.schema
      .createIndex('alert_notifications_created_idx')
      .on('alert_notifications')
      .column('created_at')
      .execute();
    await db.schema
      .createIndex('alert_notifications_cp_idx')
      .on('alert_notifications')
      .columns(['contact_point_id', 'id'])
      .execute();

    for (const [role, grants] of Object.entries(ROLE_GRANTS)) {
      const found = await sql<{ id: number; permissions: string }>`
        select id, permissions from roles where name = ${role}`.execute(db);
      const row = found.rows[0];
      if (!row) continue;
      const permissions = JSON.parse(row.permissions) as string[];
      const added = grants.filter((grant) => !permissions.includes(grant));
      if (added.length === 0) continue;
      await sql`update roles set permissions = ${JSON.stringify([...permissions, ...added])}
        where id = ${row.id}`.execute(db);
    }

    const existing = await sql<{ n: string | number }>`select count(*) as n from messaging_variables`.execute(
      db,
    );
    if (Number(existing.rows[0]?.n ?? 0) === 0) return;
    const now = new Date().toISOString();
    for (const variable of ALERT_VARIABLES) {
      await sql`insert into messaging_variables
        (variable_name, data_type, description, category, example_value, available_helpers, created_at, updated_at)
        values (${variable.variable_name}, ${variable.data_type}, ${variable.description}, ${variable.category},
          ${variable.example_value}, ${JSON.stringify(variable.available_helpers)}, ${now}, ${now})
        on conflict (variable_name) do nothing`.execute(db);
    }
  },
  async down(db: Db) {
    // The permissions and variables stay: roles and templates may use them by now.
    await db.schema.dropTable('alert_notifications').execute();
    await db.schema.dropTable('alert_history').execute();
    await db.schema.dropTable('alert_silences').execute();
    await db.schema.dropTable('alert_rule_contact_points').execute();
    await db.schema.dropTable('alert_rules').execute();
    await db.schema.dropTable('alert_contact_points').execute();
  },
});
