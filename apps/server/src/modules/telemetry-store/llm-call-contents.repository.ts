import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { LlmCallContentsTable } from '../../db/telemetry-tables.js';

// The content of calls (docs/operators/metrics.md, "Content of calls"): kept apart from llm_calls, for
// LUMI_CONTENT_RETENTION_DAYS.

export type ContentRow = Insertable<LlmCallContentsTable>;

/** Rows per INSERT: six columns each, far below both databases' bound-parameter limits. */
const INSERT_CHUNK = 500;
/** Rows per DELETE while pruning, so a large backlog never holds a long lock. */
const PRUNE_CHUNK = 5000;

export async function insertContents(db: Executor, rows: ContentRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db
      .insertInto('llm_call_contents')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute();
  }
}

export function findContent(db: Executor, id: string): Promise<Selectable<LlmCallContentsTable> | undefined> {
  return db.selectFrom('llm_call_contents').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Deletes the content of calls older than `before`, a chunk at a time; returns how many went. */
export async function pruneContents(db: Executor, before: string): Promise<number> {
  let removed = 0;
  for (;;) {
    const result = await db
      .deleteFrom('llm_call_contents')
      .where('id', 'in', (eb) =>
        eb.selectFrom('llm_call_contents').select('id').where('ts', '<', before).limit(PRUNE_CHUNK),
      )
      .executeTakeFirst();
    const count = Number(result.numDeletedRows);
    removed += count;
    if (count < PRUNE_CHUNK) return removed;
  }
}
