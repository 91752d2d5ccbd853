import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { DialectName } from '../connection.js';

type Db = Kysely<unknown>;

export function idColumn(dialect: DialectName) {
  return dialect === 'postgres'
    ? (['serial', (c: ColumnDefinitionBuilder) => c.primaryKey()] as const)
    : (['integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement()] as const);
}

export const foundation = (dialect: DialectName) => ({
  async up(db: Db) {
    const [idType, idBuilder] = idColumn(dialect);
    await db.schema
      .createTable('roles')
      .addColumn('id', idType, idBuilder)
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('permissions', 'text', (c) => c.notNull())
      .addColumn('built_in', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', idType, idBuilder)
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('username_key', 'text', (c) => c.notNull().unique())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_key', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('last_login', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('user_roles')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('restrict'))
      .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
      .execute();
    await db.schema.createIndex('user_roles_role_idx').on('user_roles').column('role_id').execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('revoked_reason', 'text')
      .addColumn('ip_address', 'text')
      .addColumn('user_agent', 'text')
      .execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('refresh_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('rotated_at', 'text')
      .execute();
    await db.schema
      .createIndex('refresh_tokens_session_idx')
      .on('refresh_tokens')
      .column('session_id')
      .execute();

    await db.schema
      .createTable('login_failures')
      .addColumn('id', idType, idBuilder)
      .addColumn('username_key', 'text', (c) => c.notNull())
      .addColumn('ip_address', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('login_failures_user_idx')
      .on('login_failures')
      .columns(['username_key', 'created_at'])
      .execute();
    await db.schema
      .createIndex('login_failures_ip_idx')
      .on('login_failures')
      .columns(['ip_address', 'created_at'])
      .execute();

    await db.schema
      .createTable('audit_logs')
      .addColumn('id', idType, idBuilder)
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'integer')
      .addColumn('actor_username', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('resource_type', 'text', (c) => c.notNull())
      .addColumn('resource_id', 'text')
      .addColumn('old_value', 'text')
      .addColumn('new_value', 'text')
      .addColumn('ip_address', 'text')
      .addColumn('user_agent', 'text')
      .execute();
    await db.schema.createIndex('audit_logs_created_idx').on('audit_logs').column('created_at').execute();
    await db.schema.createIndex('audit_logs_action_idx').on('audit_logs').column('action').execute();
  },
  async down(db: Db) {
    for (const table of [
      'audit_logs',
      'login_failures',
      'refresh_tokens',
      'sessions',
      'user_roles',
      'users',
      'roles',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
});
