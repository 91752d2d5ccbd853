import type { AuditListResponse, AuditQuery } from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { isoTime, type Clock } from '../../lib/time.js';
import { insertAuditLog, listAuditLogs } from './audit.repository.js';

/** Who did something, from where: taken from the request by the routes. */
export interface Actor {
  id: number | null;
  username: string | null;
  ip: string | null;
  userAgent: string | null;
}

export interface AuditEvent {
  action: string;
  resourceType: string;
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

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
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
  resolveNamesWith(resourceType: string, names: CurrentNames): void {
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
    const rows = await listAuditLogs(this.db, query);
    const page = rows.slice(0, query.limit);
    const current = await this.currentNamesOf(page);
    return {
      logs: page.map((row) => ({
        id: row.id,
        action: row.action,
        user: row.actor_username,
        timestamp: row.created_at,
        resource_type: row.resource_type,
        resource_id: row.resource_id,
        resource_name: row.resource_name,
        resource_current_name: current.get(`${row.resource_type}:${row.resource_id}`) ?? null,
        old_value: parseJson(row.old_value),
        new_value: parseJson(row.new_value),
        ip_address: row.ip_address,
        user_agent: row.user_agent,
      })),
      next_cursor: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
    };
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
