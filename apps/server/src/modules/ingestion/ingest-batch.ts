import {
  findUnsafeText,
  INGEST_LIMITS,
  TELEMETRY_EVENT_TYPES,
  telemetryEventSchema,
  type IngestResult,
  type TelemetryEvent,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/database.js';
import { describeLag } from '../../lib/freshness.js';
import { DAY_MS } from '../../lib/hour-buckets.js';
import { budgetStatuses } from '../budgets/budgets.service.js';
import { callPricer } from '../budgets/call-pricing.js';
import {
  storeEvents,
  type SpendBuffer,
  type UsageSum,
  type ContentRow,
  type EventRow,
  type EventRows,
} from '../telemetry-store/telemetry-store.js';
import { compileRedactions, contentRow, type ContentCapture } from './content-capture.js';
import { Turns } from '../../lib/turns.js';

// One batch of telemetry events checked and stored (docs/bot-developers/ingestion.md, "Reporting events"). It
// takes the database, the time and the time zone as arguments and nothing else, so the same code runs in the
// server's thread and in the SQLite ingest worker (ingest-writer.ts). The telemetry store keeps the events
// and their rollups (modules/telemetry-store); this file decides what is accepted and how it is stored.

type EventOf<T extends TelemetryEvent['type']> = Extract<TelemetryEvent, { type: T }>;

/**
 * Who sent a batch: the API key (null for Lumi's own calls), and its content settings (null when it does not
 * capture content: the calls' prompt and completion are then dropped unread).
 */
export interface IngestSource {
  apiKeyId: number | null;
  capture: ContentCapture | null;
}
export const LUMI_SOURCE: IngestSource = { apiKeyId: null, capture: null };

const iso = (ts: string) => new Date(ts).toISOString();

/** At most this many problems are listed in one rejected event's detail. */
const MAX_ISSUES = 3;

function describeIssues(error: z.ZodError): string {
  const lines = error.issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length - MAX_ISSUES;
  return more > 0 ? `${lines.join('; ')}; and ${more} more` : lines.join('; ');
}

/** One event checked on its own: the normalised event, or why it is rejected. */
function parseEvent(entry: unknown, now: number): TelemetryEvent | string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return 'An event must be a JSON object';
  const type = (entry as { type?: unknown }).type;
  if (!(TELEMETRY_EVENT_TYPES as readonly unknown[]).includes(type)) {
    return `type must be one of ${TELEMETRY_EVENT_TYPES.join(', ')}`;
  }
  const result = telemetryEventSchema.safeParse(entry);
  if (!result.success) return describeIssues(result.error);
  const event = result.data;
  // A call's content is made printable as it is kept (llm-content.ts), not refused: only the rest is checked.
  const { prompt: _prompt, completion: _completion, ...checked } = event as Partial<EventOf<'llm_call'>>;
  const unsafe = findUnsafeText(checked);
  if (unsafe) return `${unsafe.path}: ${unsafe.message}`;
  const at = Date.parse(event.ts);
  if (at > now + INGEST_LIMITS.futureSkewSeconds * 1000) {
    return `ts is ${describeLag((at - now) / 1000)} ahead of the server's clock; check the bot's clock`;
  }
  if (at < now - INGEST_LIMITS.rollupRetentionDays * DAY_MS) {
    return `ts is older than the ${INGEST_LIMITS.rollupRetentionDays} days of history Lumi keeps`;
  }
  // Every time is stored as ISO 8601 UTC text, so text order is time order.
  event.ts = iso(event.ts);
  if (event.type === 'heartbeat') {
    event.started_at = iso(event.started_at);
    event.active_locks = event.active_locks.map((lock) => ({ ...lock, since: iso(lock.since) }));
  }
  if (event.type === 'market_data') event.last_candle_time = iso(event.last_candle_time);
  return event;
}

function of<T extends TelemetryEvent['type']>(events: TelemetryEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

/**
 * Validates each event on its own, stores the valid ones that are new and updates the rollups, all in one
 * transaction: what is counted as accepted is durable when the answer is sent, and a failure stores
 * nothing. A repeated (type, id) is a duplicate, whether stored before or earlier in the same batch.
 * `now` is the time the batch arrived; `timezone` (LUMI_TIMEZONE) places the budgets' day. With `spend`,
 * the chats' and users' daily spend and the limits' usage go there once the transaction has committed, to be
 * written behind it (the SQLite ingest worker: telemetry-store/spend-buffer.ts). Once it has committed,
 * `onUsage` has the limits' usage the batch stored (none with `spend`) and its calls per chat and user and
 * minute (the allowance's mirror, limits/usage-mirror.ts).
 */
export async function ingestBatch(
  db: Kysely<Database>,
  raw: unknown[],
  now: number,
  timezone: string,
  source: IngestSource = LUMI_SOURCE,
  spend?: SpendBuffer,
  onUsage?: (usage: UsageSum[], calls: UsageSum[]) => void,
): Promise<IngestResult> {
  const rejected: IngestResult['rejected'] = [];
  const events: TelemetryEvent[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  // Checking a thousand events is a long stretch: the event loop gets its turns (lib/turns.ts).
  const turns = new Turns();
  for (const [index, entry] of raw.entries()) {
    await turns.next();
    const event = parseEvent(entry, now);
    if (typeof event === 'string') {
      rejected.push({ index, detail: event });
      continue;
    }
    if (event.id !== undefined) {
      const key = `${event.type}:${event.id}:${event.ts}`;
      if (seen.has(key)) {
        duplicates += 1;
        continue;
      }
      seen.add(key);
    }
    events.push(event);
  }

  const { result, stored } = await db.transaction().execute(async (trx) => {
    const stored =
      events.length === 0
        ? null
        : await storeEvents(trx, await rowsOf(trx, events, source), spend ? 'deferred' : 'inline');
    const accepted = stored?.stored ?? 0;
    duplicates += events.length - accepted;
    const result = { accepted, duplicates, rejected, budgets: await budgetStatuses(trx, now, timezone) };
    return { result, stored };
  });
  if (spend && stored?.spend) spend.add(stored.spend);
  // The usage written here (none with `spend`: it is written behind), and the calls either way.
  const usage = spend ? [] : (stored?.usage ?? []);
  if (onUsage && stored && (usage.length > 0 || stored.calls.length > 0)) onUsage(usage, stored.calls);
  return result;
}

/** The events as the rows of their tables; llm_calls without a cost are costed from the model prices. */
async function rowsOf(trx: Executor, events: TelemetryEvent[], source: IngestSource): Promise<EventRows> {
  const { llm, contents } = await llmRows(trx, of(events, 'llm_call'), source);
  const common = (e: TelemetryEvent) => ({ client_id: e.id ?? null, ts: e.ts });
  return {
    llm,
    contents,
    integrations: of(events, 'integration_call').map((e) => ({
      ...common(e),
      service_name: e.service_name,
      status: e.status,
      latency_ms: e.latency_ms,
      error: e.error ?? null,
    })),
    cache: of(events, 'cache_stats').map((e) => ({
      ...common(e),
      hits: e.hits,
      misses: e.misses,
      entries: e.entries,
      avg_response_time_cached_ms: e.avg_response_time_cached_ms,
      avg_response_time_uncached_ms: e.avg_response_time_uncached_ms,
    })),
    errors: of(events, 'error').map((e) => ({ ...common(e), source: e.source, message: e.message })),
    heartbeats: of(events, 'heartbeat').map((e) => ({
      ...common(e),
      telegram_status: e.telegram_status,
      started_at: e.started_at,
      active_locks: JSON.stringify(e.active_locks),
    })),
    market: of(events, 'market_data').map((e) => ({
      ...common(e),
      last_candle_time: e.last_candle_time,
      websocket_status: e.websocket_status,
      missing_intervals: e.missing_intervals,
    })),
    feedback: of(events, 'feedback').map((e) => ({
      ...common(e),
      chat_id: e.chat_id,
      message_id: e.message_id,
      user_id: e.user_id ?? null,
      reaction: e.reaction ?? null,
      score: e.score ?? null,
      template: e.template ?? null,
      feature: e.feature ?? null,
      config_revision: e.config_revision ?? null,
    })),
  };
}

/**
 * llm_call rows, priced (modules/budgets/call-pricing.ts) where the bot sent no cost_usd, and the content
 * of those that carry it when the key captures content (content-capture.ts). Redacting is the one long
 * part, so it gives the event loop back between calls (lib/turns.ts).
 */
async function llmRows(trx: Executor, calls: EventOf<'llm_call'>[], source: IngestSource) {
  const price = await callPricer(trx, calls);
  const patterns = source.capture && compileRedactions(source.capture);
  const turns = new Turns();
  const contents: ContentRow[] = [];
  const llm: EventRow<'llm_calls'>[] = [];
  for (const c of calls) {
    const content = patterns ? contentRow(c, patterns) : null;
    if (content) {
      contents.push(content);
      await turns.next();
    }
    const { cost_usd, cost_computed, unpriced } = price(c);
    llm.push({
      client_id: c.id ?? null,
      ts: c.ts,
      provider: c.provider,
      model: c.model,
      input_tokens: c.input_tokens,
      output_tokens: c.output_tokens,
      cost_usd,
      cost_computed,
      unpriced,
      usage_known: c.usage_known === false ? 0 : 1,
      latency_ms: c.latency_ms,
      cached: c.cached ? 1 : 0,
      success: c.success ? 1 : 0,
      chat_id: c.chat_id ?? null,
      user_id: c.user_id ?? null,
      feature: c.feature ?? null,
      error_type: c.error_type ?? null,
      api_key_id: source.apiKeyId,
      response_model: c.response_model ?? null,
      content_id: content?.id ?? null,
    });
  }
  return { llm, contents };
}
