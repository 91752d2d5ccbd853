import type {
  AuditExportQuery,
  AuditListResponse,
  AuditLog,
  AuditQuery,
  AuditResourceType,
} from '@lumi/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AuditLogsTable, Database, Executor } from '../../db/database.js';
import type { Download } from '../../plugins/download.js';
import { ValidationError } from '../../lib/errors.js';
import { isoTime, type Clock } from '../../lib/time.js';
import { EXPORT_FORMATS, exportFileName } from './audit-export.js';
import { insertAuditLog, listAuditLogs, listChanges, type AuditPageQuery } from './audit.repository.js';

/**
 * Entries an export reads per query: few enough that one page is a few hundred kilobytes in memory and a
 * few milliseconds of work, enough that 100,000 entries take a hundred queries.
 */
const AUDIT_EXPORT_PAGE_SIZE = 1000;

/** Who did something, from where: taken from the request by the routes. */
export interface Actor {
  id: number | null;
  username: string | null;
  ip: string | null;
  userAgent: string | null;
}

export interface AuditEvent {
  action: string;
  resourceType: AuditResourceType;
  resourceId?: string | number | null;
  /** What the resource is called at the time of the change; the log shows it instead of the bare id. */
  resourceName?: string | null;
  oldValue?: unknown;
  newValue?: unknown;
}

/**
 * Names that hold secrets: anything about passwords, secrets or hashes, and names ending in "token" or
 * "key" (refresh_token, accessToken, api_key). Names that merely mention tokens, such as a budget's
 * daily_token_limit, are kept.
 */
function isSecretName(name: string): boolean {
  if (/password|secret|hash/i.test(name)) return true;
  const last = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .at(-1);
  return last === 'token' || last === 'key';
}

/** Never store passwords or tokens, even if a caller passes an object that holds one. */
function scrub(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(scrub);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => !isSecretName(key))
        .map(([key, v]) => [key, scrub(v)]),
    );
  }
  return value;
}

/** An entry's resource and its old and new values, as the log stores them. */
type StoredResource = Pick<
  AuditLogsTable,
  'resource_type' | 'resource_id' | 'resource_name' | 'old_value' | 'new_value'
>;

/** A stored old or new value as it was given; text that is not JSON as it is. */
function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A range that ends before it starts matches nothing: most likely the two dates were swapped. */
function checkRange(query: { from?: string; to?: string }): void {
  if (query.from && query.to && Date.parse(query.from) > Date.parse(query.to)) {
    throw ValidationError.field('to', "The range's end must not be before its start");
  }
}

/** The current names of a resource type's ids that still exist. */
export type CurrentNames = (ids: number[]) => Promise<Map<number, string>>;

export class AuditService {
  private readonly currentNames = new Map<string, CurrentNames>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
  ) {}

  /**
   * How the log learns whether a resource of this type still exists and what it is called now, so the
   * console links an entry to the item as it is (the owning module's service answers; the log never reads
   * another module's tables).
   */
  resolveNamesWith(resourceType: AuditResourceType, names: CurrentNames): void {
    this.currentNames.set(resourceType, names);
  }

  /** Writes an entry; pass the transaction of the change so both land or neither does. */
  async record(executor: Executor, actor: Actor, event: AuditEvent): Promise<void> {
    const oldValue = scrub(event.oldValue);
    const newValue = scrub(event.newValue);
    await insertAuditLog(executor, {
      created_at: isoTime(this.now()),
      actor_id: actor.id,
      actor_username: actor.username,
      action: event.action,
      resource_type: event.resourceType,
      resource_id:
        event.resourceId === undefined || event.resourceId === null ? null : String(event.resourceId),
      resource_name: event.resourceName?.slice(0, 500) ?? null,
      old_value: oldValue === null ? null : JSON.stringify(oldValue),
      new_value: newValue === null ? null : JSON.stringify(newValue),
      ip_address: actor.ip,
      user_agent: actor.userAgent?.slice(0, 500) ?? null,
    });
  }

  async list(query: AuditQuery): Promise<AuditListResponse> {
    checkRange(query);
    const rows = await listAuditLogs(this.db, query, query.limit);
    const page = rows.slice(0, query.limit);
    return {
      logs: await this.entriesOf(page),
      next_cursor: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
    };
  }

  /**
   * Every entry the filters match, newest first, as a file (docs/api.md, "The audit log"). Entries are read a
   * page at a time as the reader asks for more, never all at once, so memory stays at one page however long
   * the log. The export is itself audited (OWASP Logging Cheat Sheet: "data import and export"), before the
   * first page is read, so the file holds its own entry when the filters match it.
   *
   * A bad filter and a failure to read the first page are thrown here, before anything is sent, and answer
   * as errors do. Once the download has started a failure can no longer change its status: the error is
   * logged and rethrown, which breaks the connection off, so the client sees a download that failed rather
   * than a complete-looking file that is short.
   */
  async export(
    actor: Actor,
    query: AuditExportQuery,
    log: FastifyBaseLogger,
    /** False for a HEAD request, which downloads nothing and so is not an export. */
    audited = true,
  ): Promise<Download> {
    checkRange(query);
    const { format, ...filters } = query;
    if (audited) {
      await this.record(this.db, actor, {
        action: 'audit.exported',
        resourceType: 'audit_log',
        newValue: { format, filters },
      });
    }
    const pages = this.pagesOf(filters);
    const first = await pages.next();
    const { contentType, head, lines } = EXPORT_FORMATS[format];
    async function* chunks() {
      let written = 0;
      try {
        yield head;
        for (let page = first; !page.done; page = await pages.next()) {
          yield lines(page.value);
          written += page.value.length;
        }
      } catch (error) {
        log.error({ err: error, written }, 'The audit log export failed part way; the download is cut short');
        throw error;
      } finally {
        await pages.return(undefined);
      }
    }
    return { fileName: exportFileName(new Date(this.now()), format), contentType, chunks: chunks() };
  }

  /** The filtered log in pages of entries, newest first, each read only when the previous one is used. */
  private async *pagesOf(filters: Omit<AuditPageQuery, 'cursor'>): AsyncGenerator<AuditLog[]> {
    let cursor: number | undefined;
    for (;;) {
      const rows = await listAuditLogs(this.db, { ...filters, cursor }, AUDIT_EXPORT_PAGE_SIZE);
      const page = rows.slice(0, AUDIT_EXPORT_PAGE_SIZE);
      if (page.length > 0) yield await this.entriesOf(page);
      if (rows.length <= AUDIT_EXPORT_PAGE_SIZE) return;
      cursor = page.at(-1)!.id;
    }
  }

  /** Rows as the API shows them: values parsed, and what each resource is called now. */
  private async entriesOf(page: Awaited<ReturnType<typeof listAuditLogs>>): Promise<AuditLog[]> {
    const resources = await this.resourcesOf(page);
    return page.map((row, i) => ({
      id: row.id,
      action: row.action,
      user: row.actor_username,
      timestamp: row.created_at,
      ...resources[i]!,
      ip_address: row.ip_address,
      user_agent: row.user_agent,
    }));
  }

  /**
   * The resource and values of stored entries as the API shows them: values parsed, and what each resource
   * is called now. The log's pages and the charts' change markers (modules/metrics) read entries so.
   */
  async resourcesOf(rows: StoredResource[]) {
    const current = await this.currentNamesOf(rows);
    return rows.map((row) => ({
      resource_type: row.resource_type,
      resource_id: row.resource_id,
      resource_name: row.resource_name,
      resource_current_name: current.get(`${row.resource_type}:${row.resource_id}`) ?? null,
      old_value: parseJson(row.old_value),
      new_value: parseJson(row.new_value),
    }));
  }

  /**
   * Up to `limit` entries with one of `actions` saved in [from, to), newest first: the change markers of
   * the charts (modules/metrics/change-markers.service.ts) read the log through this.
   */
  changes(actions: readonly string[], from: string, to: string, limit: number) {
    return listChanges(this.db, actions, from, to, limit);
  }

  /** 'type:id' → the name now, for the page's resources that still exist; one lookup per type. */
  private async currentNamesOf(page: { resource_type: string; resource_id: string | null }[]) {
    const idsByType = new Map<string, Set<number>>();
    for (const { resource_type: type, resource_id: id } of page) {
      if (!this.currentNames.has(type) || id === null || !/^\d{1,15}$/.test(id)) continue;
      idsByType.set(type, (idsByType.get(type) ?? new Set()).add(Number(id)));
    }
    const lookups = [...idsByType].map(async ([type, ids]) => {
      const names = await this.currentNames.get(type)!([...ids]);
      return [...names].map(([id, name]): [string, string] => [`${type}:${id}`, name]);
    });
    return new Map((await Promise.all(lookups)).flat());
  }
}
