import type { AlertHistoryResponse, alertHistoryQuerySchema } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/database.js';
import * as repo from './alerts.repository.js';

type HistoryQuery = z.output<typeof alertHistoryQuerySchema>;

/**
 * The alert history (issue 16, "Rules"): every state change of every rule with the value that caused it,
 * newest first, paged by id; it outlives the rules (their name and severity are kept with each entry).
 */
export class AlertHistoryService {
  constructor(private readonly db: Kysely<Database>) {}

  async list(query: HistoryQuery): Promise<AlertHistoryResponse> {
    const rows = await repo.listHistory(this.db, {
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
