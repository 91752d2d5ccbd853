import { setImmediate } from 'node:timers/promises';
import {
  LLM_RANGE_DEFAULT_HOURS,
  LLM_RANGE_MAX_DAYS,
  LLM_RANGE_MESSAGES,
  METRICS_EXPORT_COLUMNS,
  METRICS_EXPORT_OTHER,
  type MetricsExportPanel,
  type MetricsExportQuery,
} from '@lumi/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { csvChunks, type CsvValue } from '../../lib/csv.js';
import type { Download } from '../../plugins/download.js';
import { HOUR_MS, hourKey } from '../../lib/hour-buckets.js';
import { roundTo } from '../../lib/llm-cost.js';
import { addDays, firstHourOfLocalDate, localDate } from '../../lib/zoned-days.js';
import type { Clock } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import * as store from '../telemetry-store/telemetry-store.js';
import { parseMetricsRange, type MetricsRange } from './metrics-range.js';

/**
 * Rows a panel export reads per query: a page is a few hundred kilobytes of text and a few milliseconds of
 * work, and 100,000 rows take about a hundred queries.
 */
const EXPORT_PAGE_SIZE = 1000;

const money = (usd: number) => roundTo(usd, 6);

/** 2026-11-25T03:00:00.000Z → 20261125T0300Z: safe in every file system. */
const stamp = (key: string) => key.slice(0, 16).replaceAll(/[-:]/g, '') + 'Z';

/**
 * The numbers of a Metrics panel as a CSV file (docs/operators/metrics.md, "CSV exports"): usage by day,
 * provider, model and feature; chats and users by cost; calls per external service. Read from the same
 * rollups as the panels, over the same range rules, so a file's totals are the panel's. Pages are read as the
 * client takes the bytes in, never the whole file at once, so memory stays at one page however many rows the
 * range holds.
 *
 * A bad range and a failure to read the first page are thrown before anything is sent and answer as errors
 * do; a failure later is logged and breaks the connection off, so a short file never looks complete.
 */
export class MetricsExportService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    private readonly audit: AuditService,
    /** LUMI_TIMEZONE: the usage file's days are the usage panel's. */
    private readonly timeZone: string,
  ) {}

  /**
   * The export is audited (OWASP Logging Cheat Sheet: "data import and export"; the chat and user files
   * hold Telegram ids) once its range is known good, before the first page is read.
   */
  async export(
    actor: Actor,
    panel: MetricsExportPanel,
    query: MetricsExportQuery,
    log: FastifyBaseLogger,
    /** False for a HEAD request, which downloads nothing and so is not an export. */
    audited = true,
  ): Promise<Download> {
    const range = parseMetricsRange(query, this.now(), {
      defaultTo: 'end-of-hour',
      defaultMs: LLM_RANGE_DEFAULT_HOURS * HOUR_MS,
      maxDays: LLM_RANGE_MAX_DAYS,
      messages: LLM_RANGE_MESSAGES,
    });
    if (audited) {
      await this.audit.record(this.db, actor, {
        action: 'metrics.exported',
        resourceType: 'metrics',
        resourceName: panel,
        newValue: { panel, from: range.from, to: range.to },
      });
    }
    const chunks = await csvChunks(
      METRICS_EXPORT_COLUMNS[panel],
      this.pagesOf(panel, range),
      (error, written) =>
        log.error(
          { err: error, panel, written },
          'A metrics export failed part way; the download is cut short',
        ),
    );
    return {
      fileName: `lumi-${panel}-${stamp(range.from)}-${stamp(range.to)}.csv`,
      contentType: 'text/csv; charset=utf-8',
      chunks,
    };
  }

  private pagesOf(panel: MetricsExportPanel, range: MetricsRange): AsyncGenerator<CsvValue[][]> {
    switch (panel) {
      case 'usage':
        return this.usagePages(range);
      case 'top-chats':
        return this.spendPages('chats', range);
      case 'top-users':
        return this.spendPages('users', range);
      case 'integrations':
        return this.integrationPages(range);
    }
  }

  /**
   * Day by day in LUMI_TIMEZONE, as the usage panel counts its days (the range's first and last days may
   * be part days; the panel's own window is whole days), by provider, model and feature. A day's hourly
   * rows are read in primary key order, a page at a time, and summed; the day's rows are then written
   * sorted. So memory holds one day's provider, model and feature combinations (a few hundred for a bot
   * with a handful of features), never the file, and no read is a sort of the whole day.
   */
  private async *usagePages(range: MetricsRange): AsyncGenerator<CsvValue[][]> {
    for (let date = localDate(range.first, this.timeZone); ; date = addDays(date, 1)) {
      const dayFrom = firstHourOfLocalDate(date, this.timeZone);
      if (dayFrom >= range.end) break;
      const dayTo = firstHourOfLocalDate(addDays(date, 1), this.timeZone);
      if (dayTo <= range.first) continue;
      const from = hourKey(Math.max(dayFrom, range.first));
      const to = hourKey(Math.min(dayTo, range.end));
      const sums = new Map<string, Omit<store.UsageRow, 'hour'>>();
      let after: store.UsageKey | null = null;
      for (;;) {
        const rows = await store.usageRows(this.db, from, to, after, EXPORT_PAGE_SIZE);
        for (const { hour: _hour, ...row } of rows) {
          const key = JSON.stringify([row.provider, row.model, row.feature]);
          const sum = sums.get(key);
          if (!sum) {
            sums.set(key, row);
            continue;
          }
          sum.requests += row.requests;
          sum.failed_requests += row.failed_requests;
          sum.input_tokens += row.input_tokens;
          sum.output_tokens += row.output_tokens;
          sum.cost_usd += row.cost_usd;
        }
        if (rows.length < EXPORT_PAGE_SIZE) break;
        after = rows.at(-1)!;
        // Let other requests in between pages: SQLite answers within the event loop's turn.
        await setImmediate();
      }
      const sorted = [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (let start = 0; start < sorted.length; start += EXPORT_PAGE_SIZE) {
        yield sorted
          .slice(start, start + EXPORT_PAGE_SIZE)
          .map(([, row]) => [
            date,
            row.provider,
            row.model,
            row.feature === store.NO_FEATURE ? null : row.feature,
            row.requests,
            row.failed_requests,
            row.input_tokens,
            row.output_tokens,
            money(row.cost_usd),
          ]);
      }
    }
  }

  /**
   * The chats (users) of the UTC days the range touches, highest cost first (ties by id), then one row
   * named "other" for those each finished day folded out of its top list (docs/operators/metrics.md), when there
   * are any. Ranking needs every chat's sum, so the days' rows are read a page at a time in primary key
   * order and summed per chat: memory holds one entry per chat of the range, which the bound keeps to
   * 1,001 a finished day, never the file's text.
   */
  private async *spendPages(kind: store.SpendKind, range: MetricsRange): AsyncGenerator<CsvValue[][]> {
    const sums = new Map<string, { requests: number; tokens: number; cost_usd: number }>();
    let after: store.SpendKey | null = null;
    for (;;) {
      const rows = await store.spendRows(this.db, kind, range.fromDay, range.toDay, after, EXPORT_PAGE_SIZE);
      for (const { day: _day, id, ...spend } of rows) {
        const sum = sums.get(id);
        if (!sum) {
          sums.set(id, spend);
          continue;
        }
        sum.requests += spend.requests;
        sum.tokens += spend.tokens;
        sum.cost_usd += spend.cost_usd;
      }
      if (rows.length < EXPORT_PAGE_SIZE) break;
      after = rows.at(-1)!;
      await setImmediate();
    }
    const other = sums.get(store.OTHER_KEY);
    sums.delete(store.OTHER_KEY);
    const ranked = [...sums.entries()].sort(
      ([a, x], [b, y]) => y.cost_usd - x.cost_usd || (a < b ? -1 : a > b ? 1 : 0),
    );
    if (other) ranked.push([METRICS_EXPORT_OTHER, other]);
    for (let start = 0; start < ranked.length; start += EXPORT_PAGE_SIZE) {
      yield ranked
        .slice(start, start + EXPORT_PAGE_SIZE)
        .map(([id, spend]) => [id, spend.requests, spend.tokens, money(spend.cost_usd)]);
    }
  }

  /** Calls per external service over the range's hours, with their success rate in percent. */
  private async *integrationPages(range: MetricsRange): AsyncGenerator<CsvValue[][]> {
    let after: string | null = null;
    for (;;) {
      const rows = await store.integrationsPage(this.db, range.from, range.to, after, EXPORT_PAGE_SIZE);
      if (rows.length > 0) {
        yield rows.map((row) => [
          row.service_name,
          row.total_calls,
          row.success_count,
          row.error_count,
          row.total_calls === 0 ? 0 : roundTo((row.success_count / row.total_calls) * 100, 2),
          row.last_call_at,
          row.last_status,
        ]);
      }
      if (rows.length < EXPORT_PAGE_SIZE) break;
      after = rows.at(-1)!.service_name;
    }
  }
}
