import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { DAY_MS, HOUR_MS, hourKey } from '../../lib/hour-buckets.js';
import { readUsage, topSubjects } from '../telemetry-store/telemetry-store.js';

/** The spend far above its usual: the top spenders looked at, and the days their usual is taken over. */
const SPIKE_CANDIDATES = 20;
const SPIKE_HISTORY_DAYS = 7;

export interface Spender {
  kind: 'chat' | 'user';
  subject: string;
  /** Spent in the current and previous hour (USD). */
  spent: number;
  /** Its average spend per two hours over the 7 days before. */
  usual: number;
}

/**
 * The chats and users that spent the most in the current and previous hour, each with its usual for two
 * hours: its average over the 7 days before (the "spend far above its usual" alert condition,
 * docs/bot-developers/alerts.md).
 */
export async function topSpenders(db: Kysely<Database>, now: number): Promise<Spender[]> {
  const from = hourKey(now - HOUR_MS);
  const to = hourKey(now + HOUR_MS);
  const historyFrom = hourKey(now - HOUR_MS - SPIKE_HISTORY_DAYS * DAY_MS);
  const kinds = ['chat', 'user'] as const;
  const found = await Promise.all(
    kinds.map(async (kind) => {
      const top = await topSubjects(db, kind, 'cost_usd', from, to, SPIKE_CANDIDATES);
      return Promise.all(
        top.map(async ({ subject, used }) => {
          const history = await readUsage(db, kind, subject, historyFrom, from);
          return { kind, subject, spent: used, usual: history.cost_usd / ((SPIKE_HISTORY_DAYS * 24) / 2) };
        }),
      );
    }),
  );
  return found.flat();
}
