import type { Template, TemplateQuery, TemplateSnapshot, TemplateVersion } from '@lumi/contract';
import type { Executor } from '../../../db/database.js';
import type { TemplateRow, TemplateVersionRow } from '../../../db/messaging-tables.js';
import type { Stamp } from '../../../db/versioned-entity.js';
import {
  firstVersionColumns,
  fromHistoryRow,
  historyRows,
  versionedStore,
} from '../../../db/versioned-tables.js';

/**
 * All SQL of the message templates and their versions, and their storage encoding: booleans as 0/1, a
 * version's changes and snapshot as JSON text. Callers see contract values only.
 */

/** A template not deleted: it always has its channel (the table's check says so). */
type LiveTemplateRow = TemplateRow & { channel_id: number };

function toTemplate(row: LiveTemplateRow): Template {
  const { template_name_key: _key, deleted_at: _at, deleted_by: _by, ...columns } = row;
  return {
    ...columns,
    disable_web_preview: row.disable_web_preview === 1,
    disable_notification: row.disable_notification === 1,
    allow_pinning: row.allow_pinning === 1,
    pin_by_default: row.pin_by_default === 1,
    split_long_messages: row.split_long_messages === 1,
    enabled: row.enabled === 1,
  };
}

function columnsOf(snapshot: TemplateSnapshot) {
  return {
    ...snapshot,
    template_name_key: snapshot.template_name.toLowerCase(),
    disable_web_preview: snapshot.disable_web_preview ? 1 : 0,
    disable_notification: snapshot.disable_notification ? 1 : 0,
    allow_pinning: snapshot.allow_pinning ? 1 : 0,
    pin_by_default: snapshot.pin_by_default ? 1 : 0,
    split_long_messages: snapshot.split_long_messages ? 1 : 0,
    enabled: snapshot.enabled ? 1 : 0,
  };
}

function toVersion(row: TemplateVersionRow): TemplateVersion {
  const entry = fromHistoryRow<TemplateSnapshot>(row);
  // Versions stored before long messages could be split did not split.
  const snapshot = { ...entry.snapshot, split_long_messages: entry.snapshot.split_long_messages ?? false };
  return { version: row.version, ...entry, snapshot };
}

/** The templates not deleted: a deleted one is kept for its history and seen nowhere else. */
function liveTemplates(db: Executor) {
  return db
    .selectFrom('messaging_templates')
    .selectAll()
    .where('deleted_at', 'is', null)
    .$narrowType<{ channel_id: number }>();
}

export async function listTemplates(db: Executor, query: TemplateQuery): Promise<Template[]> {
  let select = liveTemplates(db);
  if (query.channel_id !== undefined) select = select.where('channel_id', '=', query.channel_id);
  if (query.message_type !== undefined) select = select.where('message_type', '=', query.message_type);
  if (query.enabled !== undefined) select = select.where('enabled', '=', query.enabled ? 1 : 0);
  return (await select.orderBy('template_name_key').execute()).map(toTemplate);
}

export async function findTemplate(db: Executor, id: number): Promise<Template | undefined> {
  const row = await liveTemplates(db).where('id', '=', id).executeTakeFirst();
  return row && toTemplate(row);
}

export async function findTemplateByName(db: Executor, name: string): Promise<Template | undefined> {
  const row = await liveTemplates(db).where('template_name_key', '=', name.toLowerCase()).executeTakeFirst();
  return row && toTemplate(row);
}

/** A new template at version 1; returns its id. */
async function insertTemplate(db: Executor, snapshot: TemplateSnapshot, stamp: Stamp): Promise<number> {
  const inserted = await db
    .insertInto('messaging_templates')
    .values({ ...columnsOf(snapshot), ...firstVersionColumns(stamp) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function listVersions(db: Executor, templateId: number): Promise<TemplateVersion[]> {
  const rows = await db
    .selectFrom('messaging_template_versions')
    .selectAll()
    .where('template_id', '=', templateId)
    .orderBy('version', 'desc')
    .execute();
  return rows.map(toVersion);
}

export async function findVersion(
  db: Executor,
  templateId: number,
  version: number,
): Promise<TemplateVersion | undefined> {
  const row = await db
    .selectFrom('messaging_template_versions')
    .selectAll()
    .where('template_id', '=', templateId)
    .where('version', '=', version)
    .executeTakeFirst();
  return row && toVersion(row);
}

/** Marks the template deleted while it is at `expected` and not deleted yet; false otherwise. */
async function markDeleted(db: Executor, id: number, expected: number, stamp: Stamp): Promise<boolean> {
  const result = await db
    .updateTable('messaging_templates')
    .set({ deleted_at: stamp.at, deleted_by: stamp.by })
    .where('id', '=', id)
    .where('version', '=', expected)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Templates as a versioned entity (db/versioned-entity.ts), deleted by a mark. */
export const templateStore = versionedStore('messaging_templates', {
  columnsOf,
  find: findTemplate,
  insert: insertTemplate,
  insertVersion: historyRows('messaging_template_versions', 'template_id', 'version'),
  remove: markDeleted,
});

/** The names of those of `ids` that exist and are not deleted. */
export async function templateNamesById(db: Executor, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('messaging_templates')
    .select(['id', 'template_name'])
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Map(rows.map((row) => [row.id, row.template_name]));
}
