import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Executor } from '../../db/database.js';
import { isPostgres } from '../../db/locks.js';
import { DAY_MS } from '../../lib/hour-buckets.js';
import type { RawRow } from './events.repository.js';
import {
  add,
  countIntegrationLatencies,
  countLlmLatencies,
  packCounts,
  SEP,
  unpackCounts,
  type LatencyKind,
  type LatencySeries,
  type Spans,
} from './latency-histograms.js';

/**
 * All SQL of the latency histograms of the hourly rollups (docs/operators/metrics.md, "Latency percentiles"):
 * a batch of stored calls is counted per hour, key and bucket first (latency-histograms.ts), so the ingest
 * transaction writes each row once, in key order (concurrent batches on PostgreSQL then lock rows in the
 * same order, as the other rollups do). Pruned with the hourly rollups; read only by the latency endpoints.
 */

/** ON CONFLICT: the stored count plus the batch's. */
const addedCount = (table: string) =>
  sql<number>`${sql.ref(`${table}.count`)} + ${sql.ref('excluded.count')}`;

/** Rows per upsert: within SQLite's 32,766 bound parameters (5 a row) for a batch of any size. */
const ROWS_PER_UPSERT = 2_000;

/** Writes a batch's stored calls into the histograms; one statement per table (per 2,000 rows). */
export async function upsertLatencies(
  db: Executor,
  llm: RawRow<'llm_calls'>[],
  integrations: RawRow<'integration_calls'>[],
): Promise<void> {
  const llmCounts = countLlmLatencies(llm);
  for (let i = 0; i < llmCounts.length; i += ROWS_PER_UPSERT) {
    await db
      .insertInto('llm_latency_hourly')
      .values(llmCounts.slice(i, i + ROWS_PER_UPSERT))
      .onConflict((oc) =>
        oc
          .columns(['hour', 'provider', 'model', 'bucket'])
          .doUpdateSet({ count: addedCount('llm_latency_hourly') }),
      )
      .execute();
  }
  const integrationCounts = countIntegrationLatencies(integrations);
  for (let i = 0; i < integrationCounts.length; i += ROWS_PER_UPSERT) {
    await db
      .insertInto('integration_latency_hourly')
      .values(integrationCounts.slice(i, i + ROWS_PER_UPSERT))
      .onConflict((oc) =>
        oc
          .columns(['hour', 'service_name', 'bucket'])
          .doUpdateSet({ count: addedCount('integration_latency_hourly') }),
      )
      .execute();
  }
}

// Folding: finished hours move out of the hourly tables into one row per hour and key, and into their
// UTC day's row, so a long range reads a row per day and key (migration 20261128100000-metrics-coarse-
// rollups). A count is always in exactly one place: the hourly table or the folded rows.

const TABLES = {
  llm: { hourly: 'llm_latency_hourly', folded: 'llm_latency_folded', keys: ['provider', 'model'] },
  integrations: {
    hourly: 'integration_latency_hourly',
    folded: 'integration_latency_folded',
    keys: ['service_name'],
  },
} as const satisfies Record<LatencyKind, { hourly: string; folded: string; keys: readonly string[] }>;

/** An untyped view: the two kinds differ only in table and key column names (checked by the tests). */
type Untyped = Kysely<Record<string, Record<string, unknown>>>;

/**
 * Moves the hourly histogram rows of hours before `before` of one UTC day into the folded rows: each hour's
 * and the day's row of a key gain the moved counts. Run in a transaction. On PostgreSQL the moved rows are
 * locked in key order first, the order ingestion's upserts take them in, so a late call for one of those
 * hours cannot deadlock with the fold. Returns how many hourly rows moved.
 */
export async function foldLatencyDay(
  db: Executor,
  kind: LatencyKind,
  day: string,
  before: string,
): Promise<number> {
  const { hourly, folded, keys } = TABLES[kind];
  const u = db as unknown as Untyped;
  const dayStart = `${day}T00:00:00.000Z`;
  const end = before < nextDay(dayStart) ? before : nextDay(dayStart);
  const inRange = (eb: ExpressionBuilder<Record<string, Record<string, unknown>>, string>) =>
    eb.and([eb('hour', '>=', dayStart), eb('hour', '<', end)]);
  if (isPostgres(db)) {
    let locking = u.selectFrom(hourly).select('hour').where(inRange).orderBy('hour');
    for (const column of [...keys, 'bucket']) locking = locking.orderBy(column);
    await locking.forUpdate().execute();
  }
  const moved = await u
    .deleteFrom(hourly)
    .where(inRange)
    .returning(['hour', ...keys, 'bucket', 'count'])
    .execute();
  if (moved.length === 0) return 0;
  const histograms = new Map<
    string,
    { grain: 'hour' | 'day'; start: string; key: string[]; counts: Map<number, number> }
  >();
  const add = (grain: 'hour' | 'day', start: string, key: string[], bucket: number, count: number) => {
    const name = [grain, start, ...key].join(SEP);
    let entry = histograms.get(name);
    if (!entry) {
      entry = { grain, start, key, counts: new Map() };
      histograms.set(name, entry);
    }
    entry.counts.set(bucket, (entry.counts.get(bucket) ?? 0) + count);
  };
  for (const row of moved) {
    const key = keys.map((k) => String(row[k]));
    const bucket = Number(row.bucket);
    const count = Number(row.count);
    add('hour', String(row.hour), key, bucket, count);
    add('day', dayStart, key, bucket, count);
  }
  // Late calls of hours folded before: their rows gain, they are not replaced.
  const stored = await u
    .selectFrom(folded)
    .select(['grain', 'start', ...keys, 'counts'])
    .where((eb) =>
      eb.or([
        eb.and([eb('grain', '=', 'hour'), eb('start', '>=', dayStart), eb('start', '<', end)]),
        eb.and([eb('grain', '=', 'day'), eb('start', '=', dayStart)]),
      ]),
    )
    .execute();
  for (const row of stored) {
    const name = [row.grain, row.start, ...keys.map((k) => String(row[k]))].join(SEP);
    const entry = histograms.get(name);
    if (entry) unpackCounts(String(row.counts), entry.counts);
  }
  const rows = [...histograms.values()].map(({ grain, start, key, counts }) => ({
    grain,
    start,
    ...Object.fromEntries(keys.map((k, i) => [k, key[i]])),
    counts: packCounts(counts),
  }));
  for (let i = 0; i < rows.length; i += ROWS_PER_UPSERT) {
    await u
      .insertInto(folded)
      .values(rows.slice(i, i + ROWS_PER_UPSERT))
      .onConflict((oc) =>
        oc.columns(['grain', 'start', ...keys]).doUpdateSet({ counts: sql.ref('excluded.counts') }),
      )
      .execute();
  }
  return moved.length;
}

const nextDay = (dayStart: string) => new Date(Date.parse(dayStart) + DAY_MS).toISOString();

/** The UTC days holding hourly histogram rows of hours before `before`, oldest first. */
export async function daysToFold(db: Executor, kind: LatencyKind, before: string): Promise<string[]> {
  const { hourly } = TABLES[kind];
  const rows = await (db as unknown as Untyped)
    .selectFrom(hourly)
    .select(sql<string>`substr(hour, 1, 10)`.as('day'))
    .distinct()
    .where('hour', '<', before)
    .orderBy('day')
    .execute();
  return rows.map((row) => String(row.day));
}

// Reads. Counts come back as strings from PostgreSQL, hence Number().

/**
 * Where a span's folded counts are: the whole UTC days inside it as day rows, the hours before and after
 * them as hour rows.
 */
function pieces(i: number, start: string, end: string) {
  const from = Date.parse(start);
  const to = Date.parse(end);
  const firstDay = Math.ceil(from / DAY_MS) * DAY_MS;
  const lastDay = Math.floor(to / DAY_MS) * DAY_MS;
  if (firstDay >= lastDay) return [{ i, grain: 'hour', from, to }];
  return [
    { i, grain: 'hour', from, to: firstDay },
    { i, grain: 'day', from: firstDay, to: lastDay },
    { i, grain: 'hour', from: lastDay, to },
  ].filter((piece) => piece.from < piece.to);
}

const text = (value: string) => sql`cast(${value} as text)`;

/**
 * Per key (sorted), the histogram of every span and their merge over the range: the hourly rows' counts
 * per span, key and bucket summed by the database, and the folded rows' packed counts, read in one
 * statement (one snapshot, so a fold committing meanwhile is seen whole or not at all). The spans are
 * VALUES lists joined to the tables: each one range scan of a primary key. Span i is numbered
 * `offset + i` in the answer, so the part of a range read on its own keeps the range's numbering.
 */
export async function latencySeries(
  db: Executor,
  kind: LatencyKind,
  { starts, end }: Spans,
  offset = 0,
): Promise<LatencySeries[]> {
  const { hourly, folded, keys } = TABLES[kind];
  const spans = starts.map((start, i) => sql`(${sql.lit(i)}, ${text(start)}, ${text(starts[i + 1] ?? end)})`);
  const parts = starts.flatMap((start, i) => pieces(i, start, starts[i + 1] ?? end));
  const pieceValues = parts.map(
    (p) =>
      sql`(${sql.lit(p.i)}, ${text(p.grain)}, ${text(new Date(p.from).toISOString())}, ${text(new Date(p.to).toISOString())})`,
  );
  const columns = (table: string) => sql.raw(keys.map((k) => `${table}.${k}`).join(', '));
  // The folded rows' grains and span, spelled out beside the join so that both databases read them by
  // their primary key (grain, start, …) rather than every folded row.
  const grains = [...new Set(parts.map((p) => p.grain))].map((grain) => text(grain));
  const foldedFrom = text(new Date(Math.min(...parts.map((p) => p.from))).toISOString());
  const foldedTo = text(new Date(Math.max(...parts.map((p) => p.to))).toISOString());
  const { rows } = await sql<Record<string, string | number | null>>`
    with spans (i, span_start, span_end) as (values ${sql.join(spans)}),
      pieces (i, grain, piece_start, piece_end) as (values ${sql.join(pieceValues)})
    select spans.i as span, ${columns('l')}, l.bucket, sum(l.count) as count, cast(null as text) as counts
    from spans join ${sql.table(hourly)} l on l.hour >= spans.span_start and l.hour < spans.span_end
    group by spans.i, ${columns('l')}, l.bucket
    union all
    select pieces.i, ${columns('f')}, cast(null as integer), cast(null as bigint), f.counts
    from pieces join ${sql.table(folded)} f
      on f.grain = pieces.grain and f.start >= pieces.piece_start and f.start < pieces.piece_end
    where f.grain in (${sql.join(grains)}) and f.start >= ${foldedFrom} and f.start < ${foldedTo}`.execute(
    db,
  );
  const series = new Map<string, LatencySeries>();
  for (const row of rows) {
    const key = keys.map((k) => String(row[k]));
    const name = key.join(SEP);
    let entry = series.get(name);
    if (!entry) {
      entry = { key, histograms: { total: new Map(), spans: new Map() } };
      series.set(name, entry);
    }
    const span = Number(row.span) + offset;
    let histogram = entry.histograms.spans.get(span);
    if (!histogram) {
      histogram = new Map();
      entry.histograms.spans.set(span, histogram);
    }
    if (row.counts === null) add(histogram, Number(row.bucket), Number(row.count));
    else unpackCounts(String(row.counts), histogram);
  }
  for (const { histograms } of series.values()) {
    for (const histogram of histograms.spans.values()) {
      for (const [bucket, count] of histogram) add(histograms.total, bucket, count);
    }
  }
  return [...series.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
}

/**
 * Deletes the histogram rows of hours before `before`; returns how many rows went. Folded rows go by whole
 * UTC days (a day's row cannot lose some of its hours), so those of the day holding `before` stay until
 * the next day's run.
 */
export async function pruneLatencies(db: Executor, before: string): Promise<number> {
  let removed = 0;
  for (const { hourly, folded } of Object.values(TABLES)) {
    const result = await db.deleteFrom(hourly).where('hour', '<', before).executeTakeFirst();
    removed += Number(result.numDeletedRows);
    const foldedResult = await (db as unknown as Untyped)
      .deleteFrom(folded)
      .where('start', '<', `${before.slice(0, 10)}T00:00:00.000Z`)
      .executeTakeFirst();
    removed += Number(foldedResult.numDeletedRows);
  }
  return removed;
}
