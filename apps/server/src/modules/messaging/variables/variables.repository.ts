import type { Variable, VariableValues } from '@lumi/contract';
import type { Executor } from '../../../db/database.js';
import type { VariableRow } from '../../../db/messaging-tables.js';

/**
 * All SQL of the variable catalogue, and its storage encoding: the helpers as JSON text. Callers see
 * contract values only; an update changes the fields it is given.
 */

function toVariable(row: VariableRow): Variable {
  const { id, variable_name, description, category, example_value } = row;
  return {
    id,
    variable_name,
    data_type: row.data_type as Variable['data_type'],
    description,
    category,
    example_value,
    available_helpers: JSON.parse(row.available_helpers) as string[],
  };
}

function columnsOf(values: VariableValues, now: string) {
  return {
    ...values,
    available_helpers: JSON.stringify(values.available_helpers),
    created_at: now,
    updated_at: now,
  };
}

export async function listVariables(db: Executor): Promise<Variable[]> {
  const rows = await db
    .selectFrom('messaging_variables')
    .selectAll()
    .orderBy('category')
    .orderBy('variable_name')
    .execute();
  return rows.map(toVariable);
}

export async function findVariable(db: Executor, id: number): Promise<Variable | undefined> {
  const row = await db.selectFrom('messaging_variables').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toVariable(row);
}

export async function findVariableByName(db: Executor, name: string): Promise<Variable | undefined> {
  const row = await db
    .selectFrom('messaging_variables')
    .selectAll()
    .where('variable_name', '=', name)
    .executeTakeFirst();
  return row && toVariable(row);
}

export async function countVariables(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('messaging_variables')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertVariable(db: Executor, values: VariableValues, now: string): Promise<number> {
  const inserted = await db
    .insertInto('messaging_variables')
    .values(columnsOf(values, now))
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Inserts unless the name exists (another instance may be seeding at the same moment). */
export async function insertVariableIfMissing(db: Executor, values: VariableValues, now: string) {
  await db
    .insertInto('messaging_variables')
    .values(columnsOf(values, now))
    .onConflict((oc) => oc.column('variable_name').doNothing())
    .execute();
}

export async function updateVariable(
  db: Executor,
  id: number,
  changes: Partial<VariableValues>,
  now: string,
) {
  const { available_helpers, ...columns } = changes;
  await db
    .updateTable('messaging_variables')
    .set({
      ...columns,
      available_helpers: available_helpers && JSON.stringify(available_helpers),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** False when there was no such row (another request deleted it first). */
export async function deleteVariable(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('messaging_variables').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
