import type { Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { idColumn } from './20261122090000-foundation.js';
import { createHistoryTable } from '../table-shapes.js';

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

    await createHistoryTable(db, dialect, 'config_item_revisions', {
      column: 'item_id',
      table: 'config_items',
      version: 'revision',
    });
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('config_item_revisions').execute();
    await db.schema.dropTable('config_items').execute();
  },
});
