import type { AlertHistoryResponse, alertHistoryQuerySchema } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/database.js';
import { isoTime, type Clock } from '../../lib/time.js';
import * as historyRepo from './storage/history.repository.js';
import * as notificationsRepo from './storage/notifications.repository.js';

const DAY_MS = 86_400_000;
/** The history is kept as long as the hourly rollups it can be compared with. */
export const ALERT_HISTORY_DAYS = 400;
/** Notifications (webhook bodies and tries, links to deliveries) are kept this long once settled. */
export const ALERT_NOTIFICATION_DAYS = 90;

type HistoryQuery = z.output<typeof alertHistoryQuerySchema>;

/**
 * The alert history (docs/bot-developers/alerts.md, "States"): every state change of every rule with the
 * value that caused it, newest first, paged by id; it outlives the rules (their name and severity are kept
 * with each entry).
 */
export class AlertHistoryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
  ) {}

  /** The retention job's part: history past 400 days and settled notifications past 90 days go. */
  async prune(): Promise<{ history: number; notifications: number }> {
    const now = this.now();
    return {
      history: await historyRepo.pruneHistory(this.db, isoTime(now - ALERT_HISTORY_DAYS * DAY_MS)),
      notifications: await notificationsRepo.pruneNotifications(
        this.db,
        isoTime(now - ALERT_NOTIFICATION_DAYS * DAY_MS),
      ),
    };
  }

  async list(query: HistoryQuery): Promise<AlertHistoryResponse> {
    const rows = await historyRepo.listHistory(this.db, {
      rule_id: query.rule_id,
      state: query.state,
      severity: query.severity,
      from: query.from === undefined ? undefined : new Date(query.from).toISOString(),
      to: query.to === undefined ? undefined : new Date(query.to).toISOString(),
      cursor: query.cursor,
      limit: query.limit,
    });
    const entries = rows.slice(0, query.limit);
    return {
      entries,
      next_cursor: rows.length > query.limit ? (entries.at(-1)?.id ?? null) : null,
    };
  }
}
