import { IGNORED_SPANS_KEPT } from '@lumi/contract';
import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { OtlpIgnoredSpansTable } from '../../db/telemetry-tables.js';

/** An API key's latest ignored spans (docs/bot-developers/otlp.md, "Ignored spans"): kept, then pruned. */
export async function keepIgnoredSpans(
  db: Executor,
  apiKeyId: number,
  rows: Insertable<OtlpIgnoredSpansTable>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('otlp_ignored_spans').values(rows).execute();
  const oldestKept = await db
    .selectFrom('otlp_ignored_spans')
    .select('id')
    .where('api_key_id', '=', apiKeyId)
    .orderBy('id', 'desc')
    .offset(IGNORED_SPANS_KEPT - 1)
    .limit(1)
    .executeTakeFirst();
  if (oldestKept) {
    await db
      .deleteFrom('otlp_ignored_spans')
      .where('api_key_id', '=', apiKeyId)
      .where('id', '<', oldestKept.id)
      .execute();
  }
}

export function latestIgnoredSpans(db: Executor, apiKeyId: number) {
  return db
    .selectFrom('otlp_ignored_spans')
    .select(['received_at', 'trace_id', 'span_id', 'span_name as name', 'reason'])
    .where('api_key_id', '=', apiKeyId)
    .orderBy('id', 'desc')
    .limit(IGNORED_SPANS_KEPT)
    .execute();
}
