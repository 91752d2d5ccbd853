import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { idColumn } from './20261122090000-foundation.js';
import { templateSettingsColumns } from '../table-shapes.js';

type Db = Kysely<unknown>;

/**
 * A deleted template is marked, not removed (docs/bot-developers/deliveries.md, "Message templates"), so its
 * versions and test sends stay for the audit. Its name is free again: the unique name becomes a partial
 * unique index over the templates not deleted. A deleted template lets go of its channel and topic when they
 * are deleted (the service clears them), so channel_id may be null, but only on a deleted template.
 *
 * SQLite cannot drop a column's UNIQUE constraint, so there the table is rebuilt the way its manual says
 * (https://sqlite.org/lang_altertable.html#otheralter): foreign keys off, copy, drop, rename, check.
 */
export const templateSoftDelete = (dialect: DialectName) => ({
  async up(db: Db) {
    if (dialect === 'postgres') {
      await sql`ALTER TABLE messaging_templates
        DROP CONSTRAINT messaging_templates_template_name_key_key,
        ALTER COLUMN channel_id DROP NOT NULL,
        ADD COLUMN deleted_at text,
        ADD COLUMN deleted_by text,
        ADD CONSTRAINT messaging_templates_channel_ck CHECK (deleted_at IS NOT NULL OR channel_id IS NOT NULL)`.execute(
        db,
      );
    } else {
      await rebuildOnSqlite(db);
    }
    await db.schema
      .createIndex('messaging_templates_name_uq')
      .on('messaging_templates')
      .column('template_name_key')
      .unique()
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
  },
  async down(db: Db) {
    await sql`DELETE FROM messaging_templates WHERE deleted_at IS NOT NULL`.execute(db);
    await db.schema.dropIndex('messaging_templates_name_uq').execute();
    if (dialect === 'postgres') {
      await sql`ALTER TABLE messaging_templates
        DROP CONSTRAINT messaging_templates_channel_ck,
        DROP COLUMN deleted_at,
        DROP COLUMN deleted_by,
        ALTER COLUMN channel_id SET NOT NULL,
        ADD CONSTRAINT messaging_templates_template_name_key_key UNIQUE (template_name_key)`.execute(db);
    } else {
      // The columns stay: SQLite drops no column a CHECK names, and they are harmless to the older code.
      await db.schema
        .createIndex('messaging_templates_name_key_uq')
        .on('messaging_templates')
        .column('template_name_key')
        .unique()
        .execute();
    }
  },
});

const COLUMNS = [
  'id',
  'template_name',
  'template_name_key',
  'channel_id',
  'topic_id',
  'template_content',
  'message_type',
  'parse_mode',
  'disable_web_preview',
  'disable_notification',
  'allow_pinning',
  'pin_by_default',
  'enabled',
  'description',
  'version',
  'created_at',
  'updated_at',
  'updated_by',
];

async function rebuildOnSqlite(db: Db) {
  const [idType, idBuilder] = idColumn('sqlite');
  // Foreign keys cannot be switched inside a transaction; the migrator runs SQLite migrations outside one.
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.schema
        .createTable('messaging_templates_new')
        .addColumn('id', idType, idBuilder)
        .addColumn('template_name', 'text', (c) => c.notNull())
        .addColumn('template_name_key', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'integer', (c) => c.references('messaging_channels.id').onDelete('restrict'))
        .$call(templateSettingsColumns)
        .addColumn('deleted_at', 'text')
        .addColumn('deleted_by', 'text')
        .addCheckConstraint(
          'messaging_templates_channel_ck',
          sql`deleted_at IS NOT NULL OR channel_id IS NOT NULL`,
        )
        .execute();
      const columns = sql.join(COLUMNS.map((c) => sql.ref(c)));
      await sql`INSERT INTO messaging_templates_new (${columns}) SELECT ${columns} FROM messaging_templates`.execute(
        trx,
      );
      // Ids of templates deleted before stay unused: the audit log still names them.
      const sequence = await sql<{ seq: number }>`
        SELECT seq FROM sqlite_sequence WHERE name = 'messaging_templates'`.execute(trx);
      await trx.schema.dropTable('messaging_templates').execute();
      await trx.schema.alterTable('messaging_templates_new').renameTo('messaging_templates').execute();
      const seq = sequence.rows[0]?.seq;
      if (seq !== undefined) {
        await sql`DELETE FROM sqlite_sequence WHERE name = 'messaging_templates' AND seq < ${seq}`.execute(
          trx,
        );
        await sql`INSERT INTO sqlite_sequence (name, seq) SELECT 'messaging_templates', ${seq}
          WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'messaging_templates')`.execute(trx);
      }
      await trx.schema
        .createIndex('messaging_templates_channel_idx')
        .on('messaging_templates')
        .column('channel_id')
        .execute();
      await trx.schema
        .createIndex('messaging_templates_topic_idx')
        .on('messaging_templates')
        .column('topic_id')
        .execute();
      const broken = await sql`PRAGMA foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error('messaging_templates: foreign keys broken by the rebuild');
    });
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
