import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../src/db/connection.js';

/**
 * How the fuzz tells that a refused write changed data without reading every table around every request:
 * the database itself notes each change. Triggers on every table add a row naming the table to
 * fuzz_changes for each row inserted, deleted or updated to other values; a write that is rolled back
 * leaves no note, as it leaves no data. Left out, as a refused request may legitimately write them: the
 * sign-in bookkeeping tables, the columns recording when a key or an account was last used, and the audit
 * entries of sign-in (action `auth.*`).
 */
const VOLATILE_TABLES = ['login_failures', 'sessions', 'refresh_tokens'];
const VOLATILE_COLUMNS = ['last_used_at', 'last_login'];
const LOG = 'fuzz_changes';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The condition on an inserted row: sign-in's audit entries are not changes. */
const insertWhen = (table: string) => (table === 'audit_logs' ? "NEW.action NOT LIKE 'auth.%'" : null);

export async function watchChanges(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db);
  const watched = (names: string[]) => names.filter((name) => !VOLATILE_TABLES.includes(name));
  await run(`CREATE TABLE ${LOG} (tbl TEXT NOT NULL)`);
  if (dialect === 'postgres') {
    await run(
      `CREATE FUNCTION fuzz_changed() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN INSERT INTO ${LOG} VALUES (TG_TABLE_NAME); RETURN NULL; END $$`,
    );
    // Partitions take their parent's triggers, so only the tables a statement names are listed.
    const { rows } = await sql<{ name: string }>`
      SELECT relname AS name FROM pg_class
      WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p') AND NOT relispartition
        AND relname <> ${LOG}`.execute(db);
    const kept = VOLATILE_COLUMNS.map((column) => ` - ${literal(column)}`).join('');
    for (const table of watched(rows.map((row) => row.name))) {
      const on = `ON ${quote(table)} FOR EACH ROW`;
      const when = insertWhen(table);
      await run(
        `CREATE TRIGGER fuzz_inserted AFTER INSERT ${on} ${when ? `WHEN (${when})` : ''}
         EXECUTE FUNCTION fuzz_changed()`,
      );
      await run(`CREATE TRIGGER fuzz_deleted AFTER DELETE ${on} EXECUTE FUNCTION fuzz_changed()`);
      await run(
        `CREATE TRIGGER fuzz_updated AFTER UPDATE ${on}
         WHEN ((to_jsonb(OLD)${kept}) IS DISTINCT FROM (to_jsonb(NEW)${kept})) EXECUTE FUNCTION fuzz_changed()`,
      );
    }
    return;
  }
  const { rows } = await sql<{ name: string }>`
    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> ${LOG}`.execute(
    db,
  );
  for (const table of watched(rows.map((row) => row.name))) {
    const note = `BEGIN INSERT INTO ${LOG} VALUES (${literal(table)}); END`;
    const { rows: columns } = await sql<{ name: string }>`
      SELECT name FROM pragma_table_info(${table})`.execute(db);
    const differs = columns
      .map((column) => column.name)
      .filter((column) => !VOLATILE_COLUMNS.includes(column))
      .map((column) => `OLD.${quote(column)} IS NOT NEW.${quote(column)}`)
      .join(' OR ');
    const when = insertWhen(table);
    await run(
      `CREATE TRIGGER ${quote(`fuzz_inserted_${table}`)} AFTER INSERT ON ${quote(table)}
       ${when ? `WHEN ${when}` : ''} ${note}`,
    );
    await run(`CREATE TRIGGER ${quote(`fuzz_deleted_${table}`)} AFTER DELETE ON ${quote(table)} ${note}`);
    await run(
      `CREATE TRIGGER ${quote(`fuzz_updated_${table}`)} AFTER UPDATE ON ${quote(table)} WHEN ${differs} ${note}`,
    );
  }
}

/** The changes noted so far, by table. */
export async function changeCounts(db: Kysely<unknown>): Promise<Record<string, number>> {
  const { rows } = await sql<{ tbl: string; n: number | string }>`
    SELECT tbl, COUNT(*) AS n FROM fuzz_changes GROUP BY tbl`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.tbl, Number(row.n)]));
}
