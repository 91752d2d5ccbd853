import {
  CHANGE_MARKER_ACTIONS,
  CHANGE_MARKERS_MAX,
  LLM_RANGE_DEFAULT_HOURS,
  LLM_RANGE_MAX_DAYS,
  LLM_RANGE_MESSAGES,
  type ChangeMarkerAction,
  type ChangeMarkers,
  type ChangeMarkersQuery,
} from '@lumi/contract';
import { HOUR_MS, hourKey } from '../../lib/hour-buckets.js';
import type { Clock } from '../../lib/time.js';
import type { AuditService } from '../audit/audit.service.js';
import { changeLink, changeSummary, changeVersion, type ChangeEntry } from './change-markers.js';
import { parseMetricsRange } from './metrics-range.js';

/**
 * Change markers (docs/operators/metrics.md, "Change markers"): the configuration, template, budget and price
 * changes of a range, read from the audit log, so a spike on a chart can be tied to the change before it. The
 * range is the charts' own (whole UTC hours, at most LLM_RANGE_MAX_DAYS), and an answer holds at most
 * CHANGE_MARKERS_MAX markers, the newest, so a range full of imports still answers in one short indexed read.
 */
export class ChangeMarkersService {
  constructor(
    private readonly now: Clock,
    private readonly audit: AuditService,
  ) {}

  async list(query: ChangeMarkersQuery): Promise<ChangeMarkers> {
    const range = parseMetricsRange(query, this.now(), {
      defaultTo: 'end-of-hour',
      defaultMs: LLM_RANGE_DEFAULT_HOURS * HOUR_MS,
      maxDays: LLM_RANGE_MAX_DAYS,
      messages: LLM_RANGE_MESSAGES,
    });
    const from = hourKey(range.first);
    const to = hourKey(range.end);
    const rows = await this.audit.changes(CHANGE_MARKER_ACTIONS, from, to, CHANGE_MARKERS_MAX + 1);
    const kept = rows.slice(0, CHANGE_MARKERS_MAX).reverse();
    const resources = await this.audit.resourcesOf(kept);
    const changes = kept.map((row, i) => {
      const entry: ChangeEntry = { action: row.action as ChangeMarkerAction, ...resources[i]! };
      return {
        id: row.id,
        at: row.created_at,
        user: row.actor_username,
        action: entry.action,
        resource_type: row.resource_type,
        resource_name: row.resource_name,
        summary: changeSummary(entry),
        version: changeVersion(entry),
        link: changeLink(entry),
      };
    });
    return { from, to, changes, truncated: rows.length > CHANGE_MARKERS_MAX };
  }
}
