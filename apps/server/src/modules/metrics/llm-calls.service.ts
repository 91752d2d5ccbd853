import {
  LLM_CALLS_EXPORT_COLUMNS,
  LLM_CALLS_LIMITS,
  LLM_RANGE_DEFAULT_HOURS,
  LLM_RANGE_MAX_DAYS,
  LLM_RANGE_MESSAGES,
  LLM_UNKNOWN_ERROR_TYPE,
  type LlmCall,
  type LlmCallContent,
  type LlmCallDetail,
  type LlmCalls,
  type LlmCallsFilters,
  type llmCallsQuerySchema,
} from '@lumi/contract';
import type { z } from 'zod';
import type { Executor } from '../../db/database.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import { DAY_MS, HOUR_MS } from '../../lib/hour-buckets.js';
import { isoAfter, type Clock } from '../../lib/time.js';
import type { FastifyBaseLogger } from 'fastify';
import { csvChunks, type CsvValue } from '../../lib/csv.js';
import type { Download } from '../../plugins/download.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import * as store from '../telemetry-store/telemetry-store.js';
import { parseMetricsRange } from './metrics-range.js';

type Query = z.output<typeof llmCallsQuerySchema>;

const OTLP_ID = /^otlp:([0-9a-f]{32}):([0-9a-f]{16})$/;

/** A cursor names the last call of a page, (ts, id), opaque to the client. */
function encodeCursor(row: { ts: string; id: number | string }): string {
  return Buffer.from(`${row.ts}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): store.CallCursor {
  const [ts, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!ts || !id || !/^\d{1,19}$/.test(id) || Number.isNaN(Date.parse(ts))) {
    throw ValidationError.field('cursor', 'Not a cursor of this list: start again from the first page');
  }
  return { ts, id };
}

/** Calls an export reads per query. */
const EXPORT_PAGE_SIZE = 1000;

/** 2026-11-25T03:00:00.000Z → 20261125T0300Z: safe in every file system. */
const stamp = (iso: string) => iso.slice(0, 16).replaceAll(/[-:]/g, '') + 'Z';

const csvRow = (call: LlmCall): CsvValue[] => [
  call.ts,
  call.provider,
  call.model,
  call.feature,
  call.chat_id,
  call.user_id,
  call.input_tokens,
  call.output_tokens,
  call.usage_known ? 'true' : 'false',
  call.cost_usd,
  call.cost_source,
  call.latency_ms,
  call.success ? 'true' : 'false',
  call.error_type,
  call.id,
];

function toCall(row: store.LlmCallRow): LlmCall {
  const success = row.success === 1;
  return {
    id: String(row.id),
    ts: row.ts,
    provider: row.provider,
    model: row.model,
    feature: row.feature,
    chat_id: row.chat_id,
    user_id: row.user_id,
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    usage_known: row.usage_known === 1,
    cost_usd: row.cost_usd,
    cost_source: row.unpriced === 1 ? 'unpriced' : row.cost_computed === 1 ? 'priced' : 'bot',
    latency_ms: row.latency_ms,
    cached: row.cached === 1,
    success,
    error_type: success ? null : (row.error_type ?? LLM_UNKNOWN_ERROR_TYPE),
  };
}

/**
 * The calls behind the figures (docs/operators/metrics.md, "Calls"): the stored LLM calls of a range,
 * filtered as the panels group them, newest first, a page at a time; and one call with all Lumi keeps.
 */
export class LlmCallsService {
  constructor(
    private readonly db: Executor,
    private readonly now: Clock,
    private readonly apiKeys: ApiKeysService,
    private readonly audit: AuditService,
    /** How long the content of calls is kept (LUMI_CONTENT_RETENTION_DAYS, at most RETENTION_DAYS). */
    private readonly contentRetentionDays: number,
  ) {}

  /** The query's filters with its range resolved: exact instants, the last 24 hours by default. */
  private filtersOf(query: LlmCallsFilters): store.CallFilters {
    const range = parseMetricsRange(query, this.now(), {
      defaultTo: 'now',
      defaultMs: LLM_RANGE_DEFAULT_HOURS * HOUR_MS,
      maxDays: LLM_RANGE_MAX_DAYS,
      messages: LLM_RANGE_MESSAGES,
    });
    return { ...query, from: new Date(range.fromMs).toISOString(), to: new Date(range.toMs).toISOString() };
  }

  async list(query: Query): Promise<LlmCalls> {
    const { cursor, limit, ...rest } = query;
    const filters = this.filtersOf(rest);
    const [page, total] = await Promise.all([
      store.llmCallsPage(
        this.db,
        filters,
        cursor ? decodeCursor(cursor) : null,
        limit,
        LLM_CALLS_LIMITS.scanMax,
      ),
      store.llmCallsCount(this.db, filters, LLM_CALLS_LIMITS.countMax, LLM_CALLS_LIMITS.countScanMax),
    ]);
    return {
      calls: page.rows.map(toCall),
      next_cursor: page.next && encodeCursor(page.next),
      total: total.count,
      total_is_lower_bound: total.lowerBound,
      searched_to: page.searchCut && page.next ? page.next.ts : null,
      from: filters.from,
      to: filters.to,
    };
  }

  /**
   * The matching calls as a CSV file, newest first, at most LLM_CALLS_LIMITS.exportMax, read a page at a
   * time as the client takes them in. Audited as every metrics export is (docs/operators/metrics.md,
   * "CSV exports").
   */
  async export(
    actor: Actor,
    query: LlmCallsFilters,
    log: FastifyBaseLogger,
    audited = true,
  ): Promise<Download> {
    const filters = this.filtersOf(query);
    if (audited) {
      await this.audit.record(this.db, actor, {
        action: 'metrics.exported',
        resourceType: 'metrics',
        resourceName: 'calls',
        newValue: { panel: 'calls', ...filters },
      });
    }
    const db = this.db;
    async function* pages() {
      let cursor: store.CallCursor | null = null;
      for (let read = 0; read < LLM_CALLS_LIMITS.exportMax;) {
        const size = Math.min(EXPORT_PAGE_SIZE, LLM_CALLS_LIMITS.exportMax - read);
        const page: store.CallsPage = await store.llmCallsPage(
          db,
          filters,
          cursor,
          size,
          LLM_CALLS_LIMITS.scanMax,
        );
        if (page.rows.length > 0) yield page.rows.map((row) => csvRow(toCall(row)));
        read += page.rows.length;
        if (!page.next) return;
        cursor = page.next;
      }
    }
    const chunks = await csvChunks(LLM_CALLS_EXPORT_COLUMNS, pages(), (error, written) =>
      log.error({ err: error, written }, 'A calls export failed part way; the download is cut short'),
    );
    return {
      fileName: `lumi-calls-${stamp(filters.from)}-${stamp(filters.to)}.csv`,
      contentType: 'text/csv; charset=utf-8',
      chunks,
    };
  }

  private async call(id: string) {
    const row = await store.llmCallById(this.db, id);
    if (!row) throw new NotFoundError(`There is no LLM call ${id}; calls are kept for the retention period`);
    return row;
  }

  async get(id: string): Promise<LlmCallDetail> {
    const row = await this.call(id);
    const content = row.content_id === null ? null : await store.findContent(this.db, row.content_id);
    const otlp = row.client_id ? OTLP_ID.exec(row.client_id) : null;
    // Keys are revoked, never deleted; a key missing all the same reads as not recorded, any other failure
    // is an error.
    const key =
      row.api_key_id === null
        ? null
        : await this.apiKeys.get(row.api_key_id).catch((error: unknown) => {
            if (error instanceof NotFoundError) return null;
            throw error;
          });
    return {
      ...toCall(row),
      client_id: row.client_id,
      trace_id: otlp?.[1] ?? null,
      span_id: otlp?.[2] ?? null,
      response_model: row.response_model,
      api_key: key && { id: key.id, name: key.name },
      content: content ? 'kept' : row.content_id === null ? 'none' : 'removed',
    };
  }

  /**
   * A call's prompt and completion (docs/operators/metrics.md, "Content of calls"); each view is audited,
   * in the same transaction as the read, so no view goes unrecorded.
   */
  async content(actor: Actor, id: string): Promise<LlmCallContent> {
    const row = await this.call(id);
    if (row.content_id === null) {
      throw new NotFoundError(
        `Call ${id} kept no content: the API key that reported it did not capture content then`,
      );
    }
    const contentId = row.content_id;
    return this.db.transaction().execute(async (trx) => {
      const content = await store.findContent(trx, contentId);
      if (!content) {
        throw new NotFoundError(
          `The content of call ${id} was removed after ${this.contentRetentionDays} days (LUMI_CONTENT_RETENTION_DAYS)`,
        );
      }
      await this.audit.record(trx, actor, {
        action: 'llm_call.content_viewed',
        resourceType: 'llm_call',
        resourceId: id,
        resourceName: `${row.provider} ${row.model} at ${row.ts}`,
      });
      return {
        prompt: JSON.parse(content.prompt) as LlmCallContent['prompt'],
        completion: JSON.parse(content.completion) as LlmCallContent['completion'],
        truncated: content.truncated === 1,
        redactions: content.redactions,
        expires_at: isoAfter(this.contentRetentionDays * DAY_MS, Date.parse(content.ts)),
      };
    });
  }
}
