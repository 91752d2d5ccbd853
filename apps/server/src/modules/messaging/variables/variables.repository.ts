import type { Insertable, Updateable } from 'kysely';
import type { MessagingVariablesTable, VariableRow } from '../../../db/messaging-tables.js';
import type { Executor } from '../../../db/database.js';

export function listVariables(db: Executor): Promise<VariableRow[]> {
  return db
    .selectFrom('messaging_variables')
    .selectAll()
    .orderBy('category')
    .orderBy('variable_name')
    .execute();
}

export function findVariable(db: Executor, id: number): Promise<VariableRow | undefined> {
  return db.selectFrom('messaging_variables').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findVariableByName(db: Executor, name: string): Promise<VariableRow | undefined> {
  return db
    .selectFrom('messaging_variables')
    .selectAll()
    .where('variable_name', '=', name)
    .executeTakeFirst();
}

export async function countVariables(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('messaging_variables')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertVariable(
  db: Executor,
  row: Insertable<MessagingVariablesTable>,
): Promise<number> {
  const inserted = await db
    .insertInto('messaging_variables')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Inserts unless the name exists (another instance may be seeding at the same moment). */
export async function insertVariableIfMissing(db: Executor, row: Insertable<MessagingVariablesTable>) {
  await db
    .insertInto('messaging_variables')
    .values(row)
    .onConflict((oc) => oc.column('variable_name').doNothing())
    .execute();
}

export async function updateVariable(db: Executor, id: number, changes: Updateable<MessagingVariablesTable>) {
  await db.updateTable('messaging_variables').set(changes).where('id', '=', id).execute();
}

export async function deleteVariable(db: Executor, id: number) {
  await db.deleteFrom('messaging_variables').where('id', '=', id).execute();
}
