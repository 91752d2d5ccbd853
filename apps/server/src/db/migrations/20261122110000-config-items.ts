import type { Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { idColumn } from './20261122090000-foundation.js';

export const configItems = (dialect: DialectName) => ({
  async up(db: Kysely<unknown>) {
    const [idType, idBuilder] = idColumn(dialect);
    await db.schema
      .createTable('config_items')
      .addColumn('id', idType, idBuilder)
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .addUniqueConstraint('config_items_domain_name_uq', ['domain', 'name_key'])
      .execute();

    await db.schema
      .createTable('config_item_revisions')
      .addColumn('id', idType, idBuilder)
      .addColumn('item_id', 'integer', (c) => c.notNull().references('config_items.id').onDelete('cascade'))
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('changes', 'text', (c) => c.notNull())
      .addColumn('restored_from', 'integer')
      .addColumn('snapshot', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .addUniqueConstraint('config_item_revisions_uq', ['item_id', 'revision'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('config_item_revisions').execute();
    await db.schema.dropTable('config_items').execute();
  },
});
