import type { Insertable, Selectable } from 'kysely';
import type { ModelPricesTable, TokenBudgetsTable } from '../../db/telemetry-tables.js';
import type { Executor } from '../../db/database.js';

export type BudgetRow = Selectable<TokenBudgetsTable>;
export type PriceRow = Selectable<ModelPricesTable>;

export function listBudgets(db: Executor): Promise<BudgetRow[]> {
  return db.selectFrom('token_budgets').selectAll().orderBy('provider').execute();
}

export function listActiveBudgets(db: Executor): Promise<BudgetRow[]> {
  return db.selectFrom('token_budgets').selectAll().where('is_active', '=', 1).orderBy('provider').execute();
}

export function findBudget(db: Executor, provider: string): Promise<BudgetRow | undefined> {
  return db.selectFrom('token_budgets').selectAll().where('provider', '=', provider).executeTakeFirst();
}

export async function insertBudget(db: Executor, row: Insertable<TokenBudgetsTable>): Promise<void> {
  await db.insertInto('token_budgets').values(row).execute();
}

export async function updateBudget(
  db: Executor,
  provider: string,
  fields: Omit<Insertable<TokenBudgetsTable>, 'provider' | 'created_at'>,
): Promise<void> {
  await db.updateTable('token_budgets').set(fields).where('provider', '=', provider).execute();
}

/** False when there was no budget for `provider` (another request deleted it first). */
export async function deleteBudget(db: Executor, provider: string): Promise<boolean> {
  const result = await db.deleteFrom('token_budgets').where('provider', '=', provider).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export function listPrices(db: Executor): Promise<PriceRow[]> {
  return db.selectFrom('model_prices').selectAll().orderBy('model').execute();
}

export function pricesFor(db: Executor, models: string[]): Promise<PriceRow[]> {
  if (models.length === 0) return Promise.resolve([]);
  return db.selectFrom('model_prices').selectAll().where('model', 'in', models).execute();
}

export function findPrice(db: Executor, model: string): Promise<PriceRow | undefined> {
  return db.selectFrom('model_prices').selectAll().where('model', '=', model).executeTakeFirst();
}

export async function upsertPrice(db: Executor, row: Insertable<ModelPricesTable>): Promise<void> {
  await db
    .insertInto('model_prices')
    .values(row)
    .onConflict((oc) =>
      oc.column('model').doUpdateSet((eb) => ({
        input_usd_per_million: eb.ref('excluded.input_usd_per_million'),
        output_usd_per_million: eb.ref('excluded.output_usd_per_million'),
        updated_at: eb.ref('excluded.updated_at'),
        updated_by: eb.ref('excluded.updated_by'),
      })),
    )
    .execute();
}

export async function deletePrice(db: Executor, model: string): Promise<boolean> {
  const result = await db.deleteFrom('model_prices').where('model', '=', model).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
