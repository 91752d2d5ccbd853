import type { LimitUsage } from '@lumi/contract';
import type { Executor } from '../../db/database.js';
import type { UsageKind } from '../../db/limit-tables.js';
import { HOUR_MS, hourKey } from '../../lib/hour-buckets.js';
import { isoTime } from '../../lib/time.js';
import { topRecentSubjects, topSubjects } from '../telemetry-store/telemetry-store.js';
import { rounded } from './allowance.service.js';
import { effectiveAmount, type LimitRow } from './limit-book.js';
import { topGranted } from './limit-grants.repository.js';
import { windowSpan } from './limit-windows.js';
import * as repo from './limits.repository.js';
import type { UsageReader } from './usage-reader.js';

/** How many more top subjects a default's usage reads, for those with limits of their own. */
const OWN_SPARE = 20;

const EACH_KIND: Record<string, UsageKind> = { each_chat: 'chat', each_user: 'user' };
const OWN_KIND: Record<string, UsageKind> = { chat: 'chat', user: 'user', feature: 'feature' };

/** One subject's usage of a limit as the limits' list and preview show it. */
export function usageOf(
  subject: string,
  used: number,
  amount: number,
  span: { start: number; end: number },
): LimitUsage {
  return {
    subject,
    used: rounded(used),
    amount,
    window_start: isoTime(span.start),
    window_end: isoTime(span.end),
  };
}

/**
 * A limit's usage now (docs/operators/limits.md, "Limits"): on one subject, that subject's; on
 * each chat or user, the `top` with the most, as the allowance counts them (grants and calls in flight
 * included).
 */
export async function limitUsage(
  db: Executor,
  usage: UsageReader,
  timezone: string,
  row: LimitRow,
  now: number,
  top: number,
): Promise<LimitUsage[]> {
  const amount = effectiveAmount(row, now);
  const own = OWN_KIND[row.scope];
  if (own) {
    const s = await usage.standing({ limit: row, kind: own, subject: row.subject }, now, db);
    return [usageOf(row.subject, s.used, amount, s.span)];
  }
  const kind = EACH_KIND[row.scope]! as 'chat' | 'user';
  const span = windowSpan(row.window, now, timezone);
  // A subject with a limit of its own of this metric and window is not under the default: read a few
  // more than shown, and leave those out.
  const ownLimit = await repo.subjectsWithOwn(db, kind, row.metric, row.window);
  const read = top + OWN_SPARE;
  const [from, to] = [hourKey(span.start), hourKey(span.end)];
  const found =
    row.window === 'minute'
      ? await topRecentSubjects(db, kind, row.metric, isoTime(span.start), read)
      : await topSubjects(db, kind, row.metric, from, to, read);
  // A request limit counts the calls admitted too: the subjects with the most of those are candidates.
  const granted =
    row.metric === 'requests' ? await topGranted(db, kind, from, hourKey(span.end + HOUR_MS), read) : [];
  const candidates = [...new Set([...found, ...granted].map(({ subject }) => subject))]
    .map((subject) => ({ subject }))
    .filter(({ subject }) => !ownLimit.has(subject));
  // The candidates' standing as the allowance reads it (grants and calls in flight included).
  const standings = await Promise.all(
    candidates.map(({ subject }) => usage.standing({ limit: row, kind, subject }, now, db)),
  );
  return standings
    .sort((a, b) => b.used - a.used)
    .slice(0, top)
    .map((s) => usageOf(s.applied.subject, s.used, amount, s.span));
}
