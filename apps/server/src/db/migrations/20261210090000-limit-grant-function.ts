import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../connection.js';

type Db = Kysely<unknown>;

/**
 * PostgreSQL: lumi_take_grants, the request limits' exact counting of a group of checks in one statement
 * (modules/limits/exact-grants.ts; docs/operators/limits.md, "What counts"). It locks the group's counters in
 * the order given, with their latest counts, admits the checks in turn (each all of its grants below their
 * bounds, or none), writes the new counts and returns the checks refused with the grant that was full. Its
 * statement is its own transaction, so the counters are locked only while it runs, never across a round trip;
 * the commit does not wait for the WAL to reach the disk (`synchronous_commit = off` for it alone).
 *
 * keys: the counters (kinds, subjects, grains, buckets), each once; checks, key_of and below: one entry per
 * grant, the checks numbered in the order they came, a check's grants together, key_of a position in keys
 * (from 1), a check naming each counter once. A refused check's grant_no counts from 0 among its grants.
 * Arrays of different lengths, or a key_of outside keys, raise an error instead of admitting anything.
 */
const FUNCTION = sql`
create function lumi_take_grants(
  kinds text[], subjects text[], grains text[], buckets text[],
  checks int[], key_of int[], below bigint[]
) returns table (check_no int, grant_no int)
language plpgsql as $$
declare
  counts bigint[];
  changed boolean[] := array_fill(false, array[coalesce(array_length(kinds, 1), 0)]);
  total int := coalesce(array_length(checks, 1), 0);
  lo int := 1;
  hi int;
  refused int;
begin
  if coalesce(array_length(key_of, 1), 0) <> total or coalesce(array_length(below, 1), 0) <> total
    or exists (select 1 from unnest(key_of) k where k < 1 or k > coalesce(array_length(kinds, 1), 0)) then
    raise exception 'lumi_take_grants: checks, key_of and below must be as long as each other, key_of within keys';
  end if;
  perform set_config('synchronous_commit', 'off', true);
  with locked as (
    insert into limit_grants as g (kind, subject, grain, bucket, granted)
    select u.kind, u.subject, u.grain, u.bucket, 0
    from unnest(kinds, subjects, grains, buckets) with ordinality as u(kind, subject, grain, bucket, n)
    order by u.n
    on conflict (kind, subject, grain, bucket) do update set granted = g.granted
    returning g.kind, g.subject, g.grain, g.bucket, g.granted
  )
  select array_agg(l.granted order by u.n) into counts
  from unnest(kinds, subjects, grains, buckets) with ordinality as u(kind, subject, grain, bucket, n)
  join locked l on l.kind = u.kind and l.subject = u.subject and l.grain = u.grain and l.bucket = u.bucket;
  while lo <= total loop
    hi := lo;
    while hi < total and checks[hi + 1] = checks[lo] loop
      hi := hi + 1;
    end loop;
    refused := null;
    for i in lo..hi loop
      if counts[key_of[i]] >= below[i] then
        refused := i - lo;
        exit;
      end if;
    end loop;
    if refused is null then
      for i in lo..hi loop
        counts[key_of[i]] := counts[key_of[i]] + 1;
        changed[key_of[i]] := true;
      end loop;
    else
      check_no := checks[lo];
      grant_no := refused;
      return next;
    end if;
    lo := hi + 1;
  end loop;
  insert into limit_grants as g (kind, subject, grain, bucket, granted)
  select u.kind, u.subject, u.grain, u.bucket, counts[u.n::int]
  from unnest(kinds, subjects, grains, buckets) with ordinality as u(kind, subject, grain, bucket, n)
  where changed[u.n::int]
  order by u.n
  on conflict (kind, subject, grain, bucket) do update set granted = excluded.granted;
end
$$`;

export const limitGrantFunction = (dialect: DialectName) => ({
  async up(db: Db) {
    if (dialect === 'postgres') await FUNCTION.execute(db);
  },
  async down(db: Db) {
    if (dialect === 'postgres') {
      await sql`drop function lumi_take_grants(text[], text[], text[], text[], int[], int[], bigint[])`.execute(
        db,
      );
    }
  },
});
