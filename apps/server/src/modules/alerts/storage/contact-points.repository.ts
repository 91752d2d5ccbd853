import type { ContactPointValues } from '@lumi/contract';
import type { AlertContactPointRow } from '../../../db/alert-tables.js';
import type { Executor } from '../../../db/database.js';
import type { Stamp } from './stamp.js';

/**
 * All SQL of contact points: a Telegram chat (channel, topic, template) or a webhook URL with its
 * signing secret; the settings of the other type stay null.
 */

function selectContactPoints(db: Executor) {
  return db
    .selectFrom('alert_contact_points as cp')
    .leftJoin('messaging_channels as c', 'c.id', 'cp.channel_id')
    .leftJoin('messaging_templates as t', (join) =>
      join.onRef('t.id', '=', 'cp.template_id').on('t.deleted_at', 'is', null),
    )
    .selectAll('cp')
    .select((eb) => [
      'c.channel_name',
      't.template_name',
      eb
        .selectFrom('alert_rule_contact_points as l')
        .select((inner) => inner.fn.countAll<string | number>().as('n'))
        .whereRef('l.contact_point_id', '=', 'cp.id')
        .as('rule_count'),
    ]);
}

export type ContactPointRecord = AlertContactPointRow & {
  channel_name: string | null;
  template_name: string | null;
  rule_count: number;
};

function toContactPointRecord(
  row: AlertContactPointRow & {
    channel_name: string | null;
    template_name: string | null;
    rule_count: string | number | null;
  },
): ContactPointRecord {
  return { ...row, rule_count: Number(row.rule_count ?? 0) };
}

export async function listContactPoints(db: Executor): Promise<ContactPointRecord[]> {
  const rows = await selectContactPoints(db).orderBy('cp.name').orderBy('cp.id').execute();
  return rows.map(toContactPointRecord);
}

export async function findContactPoint(db: Executor, id: number): Promise<ContactPointRecord | undefined> {
  const row = await selectContactPoints(db).where('cp.id', '=', id).executeTakeFirst();
  return row && toContactPointRecord(row);
}

/** The columns of a contact point's settings; the other type's stay null. */
export function contactPointColumns(values: ContactPointValues) {
  return values.type === 'telegram'
    ? {
        name: values.name,
        type: values.type,
        channel_id: values.channel_id,
        topic_id: values.topic_id,
        template_id: values.template_id,
        url: null,
      }
    : {
        name: values.name,
        type: values.type,
        channel_id: null,
        topic_id: null,
        template_id: null,
        url: values.url,
      };
}

export async function insertContactPoint(
  db: Executor,
  values: ContactPointValues,
  secret: string | null,
  stamp: Stamp,
): Promise<number> {
  const { id } = await db
    .insertInto('alert_contact_points')
    .values({
      ...contactPointColumns(values),
      secret,
      created_at: stamp.at,
      updated_at: stamp.at,
      updated_by: stamp.by,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateContactPoint(db: Executor, id: number, values: ContactPointValues, stamp: Stamp) {
  await db
    .updateTable('alert_contact_points')
    .set({ ...contactPointColumns(values), updated_at: stamp.at, updated_by: stamp.by })
    .where('id', '=', id)
    .execute();
}

/** False when there was no such row (another request deleted it first). */
export async function deleteContactPoint(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('alert_contact_points').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** The names of the rules that notify a contact point. */
export async function rulesUsingContactPoint(db: Executor, id: number): Promise<string[]> {
  const rows = await db
    .selectFrom('alert_rule_contact_points as l')
    .innerJoin('alert_rules as r', 'r.id', 'l.rule_id')
    .select('r.name')
    .where('l.contact_point_id', '=', id)
    .orderBy('r.name')
    .execute();
  return rows.map((r) => r.name);
}

/** The names of the Telegram contact points that post to a channel or topic. */
export async function contactPointNamesUsing(
  db: Executor,
  column: 'channel_id' | 'topic_id',
  id: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('alert_contact_points')
    .select('name')
    .where(column, '=', id)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

/** Contact points by id, with their secrets (the notifier's look-up). */
export async function contactPointsByIds(db: Executor, ids: number[]): Promise<AlertContactPointRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('alert_contact_points').selectAll().where('id', 'in', ids).execute();
}
