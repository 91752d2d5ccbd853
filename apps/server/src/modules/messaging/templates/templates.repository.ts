import type { TemplateQuery } from '@lumi/contract';
import type { Insertable, Updateable } from 'kysely';
import type {
  MessagingTemplatesTable,
  MessagingTemplateVersionsTable,
  TemplateRow,
  TemplateVersionRow,
} from '../../../db/messaging-tables.js';
import type { Executor } from '../../../db/database.js';

export function listTemplates(db: Executor, query: TemplateQuery): Promise<TemplateRow[]> {
  let select = db.selectFrom('messaging_templates').selectAll();
  if (query.channel_id !== undefined) select = select.where('channel_id', '=', query.channel_id);
  if (query.message_type !== undefined) select = select.where('message_type', '=', query.message_type);
  if (query.enabled !== undefined) select = select.where('enabled', '=', query.enabled ? 1 : 0);
  return select.orderBy('template_name_key').execute();
}

export function findTemplate(db: Executor, id: number): Promise<TemplateRow | undefined> {
  return db.selectFrom('messaging_templates').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findTemplateByName(db: Executor, name: string): Promise<TemplateRow | undefined> {
  return db
    .selectFrom('messaging_templates')
    .selectAll()
    .where('template_name_key', '=', name.toLowerCase())
    .executeTakeFirst();
}

export async function insertTemplate(
  db: Executor,
  row: Insertable<MessagingTemplatesTable>,
): Promise<number> {
  const inserted = await db
    .insertInto('messaging_templates')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Writes only when the row is still at `expectedVersion`; false means someone else saved first. */
export async function updateTemplate(
  db: Executor,
  id: number,
  expectedVersion: number,
  changes: Updateable<MessagingTemplatesTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('messaging_templates')
    .set(changes)
    .where('id', '=', id)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteTemplate(db: Executor, id: number, expectedVersion: number): Promise<boolean> {
  const result = await db
    .deleteFrom('messaging_templates')
    .where('id', '=', id)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function insertVersion(db: Executor, row: Insertable<MessagingTemplateVersionsTable>) {
  await db.insertInto('messaging_template_versions').values(row).execute();
}

export function listVersions(db: Executor, templateId: number): Promise<TemplateVersionRow[]> {
  return db
    .selectFrom('messaging_template_versions')
    .selectAll()
    .where('template_id', '=', templateId)
    .orderBy('version', 'desc')
    .execute();
}

export function findVersion(
  db: Executor,
  templateId: number,
  version: number,
): Promise<TemplateVersionRow | undefined> {
  return db
    .selectFrom('messaging_template_versions')
    .selectAll()
    .where('template_id', '=', templateId)
    .where('version', '=', version)
    .executeTakeFirst();
}
