import { sql, type Kysely } from 'kysely';
import { SCHEDULE_SOURCE_VARIABLES } from '../../modules/messaging/variables/variables.seed.js';

type Db = Kysely<unknown>;

/**
 * Schedules (docs/bot-developers/deliveries.md, "Schedules"): an installation whose variable catalogue was
 * seeded before the schedules existed gets the variables of the schedules' data sources, once (a new
 * installation's seed has them already; a variable of that name the operator made is kept as it is).
 */
export const scheduleVariables = () => ({
  async up(db: Db) {
    const existing = await sql<{ n: string | number }>`select count(*) as n from messaging_variables`.execute(
      db,
    );
    if (Number(existing.rows[0]?.n ?? 0) === 0) return;
    const now = new Date().toISOString();
    for (const variable of SCHEDULE_SOURCE_VARIABLES) {
      await sql`insert into messaging_variables
        (variable_name, data_type, description, category, example_value, available_helpers, created_at, updated_at)
        values (${variable.variable_name}, ${variable.data_type}, ${variable.description}, ${variable.category},
          ${variable.example_value}, ${JSON.stringify(variable.available_helpers)}, ${now}, ${now})
        on conflict (variable_name) do nothing`.execute(db);
    }
  },
  async down() {
    // The variables may be in use by templates by now: they stay.
  },
});
