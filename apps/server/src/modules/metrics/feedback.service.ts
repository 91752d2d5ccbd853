import type { FeedbackGrouping, FeedbackSummary } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { isoAfter, type Clock } from '../../lib/time.js';
import { feedbackCounts } from '../telemetry-store/telemetry-store.js';

const DAY_MS = 86_400_000;

const order = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;

/**
 * Feedback on the bot's messages counted per template, feature or configuration revision
 * (docs/bot-developers/ingestion.md, "Feedback"): how many, each reaction's count, and the average score.
 */
export class FeedbackService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
  ) {}

  async summary(by: FeedbackGrouping, days: number): Promise<FeedbackSummary> {
    const from = isoAfter(-days * DAY_MS, this.now());
    const rows = new Map<string | null, FeedbackSummary['rows'][number] & { sum: number }>();
    for (const group of await feedbackCounts(this.db, by, from)) {
      const key = group.key as string | null;
      const row = rows.get(key) ?? { key, events: 0, reactions: {}, scores: 0, score_avg: null, sum: 0 };
      const events = Number(group.events);
      row.events += events;
      if (group.reaction !== null) row.reactions[group.reaction] = events;
      row.scores += Number(group.scores);
      row.sum += Number(group.score_sum ?? 0);
      rows.set(key, row);
    }
    return {
      by,
      from,
      rows: [...rows.values()]
        .map(({ sum, ...row }) => ({ ...row, score_avg: row.scores > 0 ? sum / row.scores : null }))
        // Most feedback first; then by key, the feedback that named none last.
        .sort((a, b) => b.events - a.events || order(a.key, b.key)),
    };
  }
}
