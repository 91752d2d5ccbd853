import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { idColumn } from './20261122090000-foundation.js';

type Db = Kysely<unknown>;

/**
 * Spend and abuse control (docs/operators/limits.md):
 * - limits: one per (scope, subject, metric, window); subject '' for each_chat and each_user, so the
 *   unique index holds for them too.
 * - access_rules: a chat's or user's ban or allowlist entry, one per subject.
 * - limit_usage: what ingestion stored per chat, user and feature and per UTC hour (`grain` 'hour');
 *   limit_grants: the calls the allowance admitted per UTC minute and hour (`grain`), the request limits'
 *   exact count (a conditional upsert). Both are WITHOUT ROWID tables on SQLite.
 * - limit_denials: each denied call, for the Denials list.
 * An existing operator role gets limits:write, as new installations' does (SEEDED_ROLES).
 */
export const limits = (dialect: DialectName) => ({
  async up(db: Db) {
    const [idType, idBuilder] = idColumn(dialect);
    await db.schema
      .createTable('limits')
      .addColumn('id', idType, idBuilder)
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('metric', 'text', (c) => c.notNull())
      .addColumn('window', 'text', (c) => c.notNull())
      .addColumn('amount', 'double precision', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('raise_amount', 'double precision')
      .addColumn('raise_until', 'text')
      .addColumn('note', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .execute();
    await db.schema
      .createIndex('limits_subject_uq')
      .on('limits')
      .columns(['scope', 'subject', 'metric', 'window'])
      .unique()
      .execute();
    await db.schema
      .createTable('access_rules')
      .addColumn('id', idType, idBuilder)
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('subject_kind', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .execute();
    await db.schema
      .createIndex('access_rules_subject_uq')
      .on('access_rules')
      .columns(['subject_kind', 'subject'])
      .unique()
      .execute();
    for (const table of ['limit_usage', 'limit_grants'] as const) {
      let create = db.schema
        .createTable(table)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('grain', 'text', (c) => c.notNull())
        .addColumn('bucket', 'text', (c) => c.notNull());
      create =
        table === 'limit_usage'
          ? create
              .addColumn('requests', 'bigint', (c) => c.notNull())
              .addColumn('tokens', 'bigint', (c) => c.notNull())
              .addColumn('cost_usd', 'double precision', (c) => c.notNull())
          : create.addColumn('granted', 'bigint', (c) => c.notNull());
      create = create.addPrimaryKeyConstraint(`${table}_pk`, ['kind', 'subject', 'grain', 'bucket']);
      // On SQLite the rows live in the primary key's b-tree: a subject's lookup and upsert touch one tree,
      // not an index and the table (https://sqlite.org/withoutrowid.html).
      await (dialect === 'sqlite' ? create.modifyEnd(sql`without rowid`) : create).execute();
      await db.schema.createIndex(`${table}_bucket_idx`).on(table).columns(['grain', 'bucket']).execute();
    }
    await db.schema
      .createTable('limit_denials')
      .addColumn('id', idType, idBuilder)
      .addColumn('ts', 'text', (c) => c.notNull())
      .addColumn('chat_id', 'text')
      .addColumn('user_id', 'text')
      .addColumn('feature', 'text')
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('limit_id', 'integer')
      .execute();
    await db.schema.createIndex('limit_denials_ts_idx').on('limit_denials').column('ts').execute();
    await db.schema
      .createIndex('limit_denials_limit_idx')
      .on('limit_denials')
      .columns(['limit_id', 'ts'])
      .where(sql.ref('limit_id'), 'is not', null)
      .execute();
    const found = await sql<{ id: number; permissions: string }>`
      select id, permissions from roles where name = 'operator'`.execute(db);
    const operator = found.rows[0];
    const permissions = operator ? (JSON.parse(operator.permissions) as string[]) : [];
    if (operator && !permissions.includes('limits:write')) {
      await sql`update roles set permissions = ${JSON.stringify([...permissions, 'limits:write'])}
        where id = ${operator.id}`.execute(db);
    }
  },
  async down(db: Db) {
    for (const table of ['limit_denials', 'limit_grants', 'limit_usage', 'access_rules', 'limits']) {
      await db.schema.dropTable(table).execute();
    }
  },
});
