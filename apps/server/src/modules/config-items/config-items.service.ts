import { createHash } from 'node:crypto';
import {
  CONFIG_DOMAINS,
  configItemInputSchema,
  type BotConfig,
  type ConfigDomain,
  type ConfigExport,
  type ConfigImportResult,
  type ConfigItem,
  type ConfigItemValues,
  type ConfigRevision,
  type ConfigSnapshot,
  type FieldError,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { ConfigItemRow, Database } from '../../db/database.js';
import type { Executor } from '../../lib/db-types.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import * as repo from './config-items.repository.js';

const SNAPSHOT_FIELDS = ['name', 'description', 'content', 'is_active', 'tags', 'priority'] as const;

function toItem(row: ConfigItemRow): ConfigItem {
  return {
    id: row.id,
    domain: row.domain as ConfigDomain,
    name: row.name,
    description: row.description,
    content: row.content_type === 'json' ? (JSON.parse(row.content) as Record<string, unknown>) : row.content,
    is_active: row.is_active === 1,
    tags: JSON.parse(row.tags) as string[],
    priority: row.priority,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
    updated_by: row.updated_by,
  };
}

function snapshotOf(item: ConfigItemValues | ConfigItem): ConfigSnapshot {
  const { name, description, content, is_active, tags, priority } = item;
  return { name, description, content, is_active, tags, priority };
}

function changedFields(before: ConfigSnapshot, after: ConfigSnapshot): string[] {
  return SNAPSHOT_FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

function columnsOf(values: ConfigSnapshot) {
  return {
    name: values.name,
    name_key: values.name.toLowerCase(),
    description: values.description,
    content_type: typeof values.content === 'string' ? 'text' : 'json',
    content: typeof values.content === 'string' ? values.content : JSON.stringify(values.content),
    is_active: values.is_active ? 1 : 0,
    tags: JSON.stringify(values.tags),
    priority: values.priority,
  };
}

export class ConfigItemsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
  ) {}

  /** An unknown domain is a 404 that names the valid ones. */
  domain(name: string): ConfigDomain {
    if ((CONFIG_DOMAINS as readonly string[]).includes(name)) return name as ConfigDomain;
    throw new NotFoundError(
      `Unknown configuration domain '${name}'. Valid domains: ${CONFIG_DOMAINS.join(', ')}`,
    );
  }

  async list(domain: string): Promise<ConfigItem[]> {
    return (await repo.listItems(this.db, this.domain(domain))).map(toItem);
  }

  async get(domain: string, id: number, db: Executor = this.db): Promise<ConfigItem> {
    const row = await repo.findItem(db, this.domain(domain), id);
    if (!row) throw new NotFoundError(`There is no ${domain} item ${id}`);
    return toItem(row);
  }

  async create(actor: Actor, domainName: string, values: ConfigItemValues): Promise<ConfigItem> {
    const domain = this.domain(domainName);
    return this.db.transaction().execute(async (trx) => {
      const item = await this.insert(trx, actor, domain, snapshotOf(values));
      await this.audit.record(trx, actor, {
        action: 'config.created',
        resourceType: 'config_item',
        resourceId: item.id,
        newValue: { domain, ...snapshotOf(item) },
      });
      return item;
    });
  }

  async update(actor: Actor, domainName: string, id: number, values: ConfigItemValues & { version: number }) {
    const domain = this.domain(domainName);
    return this.db.transaction().execute(async (trx) => {
      const before = await this.get(domain, id, trx);
      if (before.version !== values.version) throw this.staleVersion(before);
      const after = await this.write(trx, actor, before, snapshotOf(values), { action: 'updated' });
      if (after !== before) {
        await this.audit.record(trx, actor, {
          action: 'config.updated',
          resourceType: 'config_item',
          resourceId: id,
          oldValue: { domain, ...snapshotOf(before) },
          newValue: { domain, ...snapshotOf(after) },
        });
      }
      return after;
    });
  }

  async remove(actor: Actor, domainName: string, id: number, version: number): Promise<void> {
    const domain = this.domain(domainName);
    await this.db.transaction().execute(async (trx) => {
      const item = await this.get(domain, id, trx);
      if (item.version !== version || !(await repo.deleteItem(trx, id, version)))
        throw this.staleVersion(item);
      await this.audit.record(trx, actor, {
        action: 'config.deleted',
        resourceType: 'config_item',
        resourceId: id,
        oldValue: { domain, ...snapshotOf(item) },
      });
    });
  }

  async revisions(domain: string, id: number): Promise<ConfigRevision[]> {
    await this.get(domain, id);
    const rows = await repo.listRevisions(this.db, id);
    return rows.map((row) => ({
      revision: row.revision,
      created_at: row.created_at,
      updated_by: row.updated_by,
      action: row.action as ConfigRevision['action'],
      changes: JSON.parse(row.changes) as string[],
      restored_from: row.restored_from,
      snapshot: JSON.parse(row.snapshot) as ConfigSnapshot,
    }));
  }

  async restore(actor: Actor, domainName: string, id: number, revision: number, version?: number) {
    const domain = this.domain(domainName);
    return this.db.transaction().execute(async (trx) => {
      const before = await this.get(domain, id, trx);
      if (version !== undefined && before.version !== version) throw this.staleVersion(before);
      const target = await repo.findRevision(trx, id, revision);
      if (!target) throw new NotFoundError(`Item ${id} has no revision ${revision}`);
      const snapshot = JSON.parse(target.snapshot) as ConfigSnapshot;
      const clash = await repo.findItemByName(trx, domain, snapshot.name);
      if (clash && clash.id !== id) {
        throw new ConflictError(
          `Another ${domain} item is now named '${snapshot.name}'; rename it before restoring`,
        );
      }
      const after = await this.write(trx, actor, before, snapshot, {
        action: 'restored',
        restoredFrom: revision,
      });
      await this.audit.record(trx, actor, {
        action: 'config.restored',
        resourceType: 'config_item',
        resourceId: id,
        oldValue: { domain, ...snapshotOf(before) },
        newValue: { domain, restored_from: revision, ...snapshotOf(after) },
      });
      return after;
    });
  }

  async export(domainName: string): Promise<ConfigExport> {
    const domain = this.domain(domainName);
    const items = await this.list(domain);
    return { domain, exported_at: nowIso(), items: items.map(snapshotOf) };
  }

  /**
   * Validates every item first and applies all or nothing: an item whose name exists is updated (a new
   * revision), any other is created. Problems come back per item as `items.<index>.<field>`.
   */
  async import(actor: Actor, domainName: string, raw: unknown[]): Promise<ConfigImportResult> {
    const domain = this.domain(domainName);
    const errors: FieldError[] = [];
    const parsed: ConfigSnapshot[] = [];
    const seen = new Map<string, number>();
    raw.forEach((entry, index) => {
      const result = configItemInputSchema.safeParse(entry);
      if (!result.success) {
        for (const issue of result.error.issues) {
          errors.push({ path: ['items', index, ...issue.path].join('.'), message: issue.message });
        }
        return;
      }
      const key = result.data.name.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) {
        errors.push({
          path: `items.${index}.name`,
          message: `The name '${result.data.name}' is also used by item ${first}`,
        });
      }
      seen.set(key, index);
      parsed.push(snapshotOf(result.data));
    });
    if (errors.length > 0) {
      throw new ValidationError(
        errors,
        `${errors.length} problem${errors.length === 1 ? '' : 's'} in the import; nothing was changed`,
      );
    }

    return this.db.transaction().execute(async (trx) => {
      let created = 0;
      let updated = 0;
      for (const snapshot of parsed) {
        const existing = await repo.findItemByName(trx, domain, snapshot.name);
        if (existing) {
          const before = toItem(existing);
          if ((await this.write(trx, actor, before, snapshot, { action: 'updated' })) !== before)
            updated += 1;
        } else {
          await this.insert(trx, actor, domain, snapshot);
          created += 1;
        }
      }
      await this.audit.record(trx, actor, {
        action: 'config.imported',
        resourceType: 'config_item',
        newValue: { domain, created, updated },
      });
      return { created, updated };
    });
  }

  /** Every active item grouped by domain, highest priority first, with a version that changes with them. */
  async botConfig(): Promise<{ etag: string; body: BotConfig }> {
    const rows = await repo.listActiveItems(this.db);
    const domains = Object.fromEntries(
      CONFIG_DOMAINS.map((d) => [d, [] as BotConfig['domains'][ConfigDomain]]),
    ) as BotConfig['domains'];
    for (const row of rows) {
      const { id, name, description, content, tags, priority, version } = toItem(row);
      domains[row.domain as ConfigDomain].push({ id, name, description, content, tags, priority, version });
    }
    const etag = createHash('sha256').update(JSON.stringify(domains)).digest('base64url').slice(0, 27);
    return { etag, body: { version: etag, domains } };
  }

  private staleVersion(current: ConfigItem): ConflictError {
    return new ConflictError(
      `${current.updated_by ?? 'Someone'} changed '${current.name}' since you loaded it (now version ${current.version}). ` +
        'Reload to see their change, or overwrite it knowingly.',
      current,
    );
  }

  private async insert(trx: Executor, actor: Actor, domain: ConfigDomain, snapshot: ConfigSnapshot) {
    if (await repo.findItemByName(trx, domain, snapshot.name)) {
      throw new ConflictError(`A ${domain} item named '${snapshot.name}' already exists`);
    }
    const now = nowIso();
    const id = await repo.insertItem(trx, {
      domain,
      ...columnsOf(snapshot),
      version: 1,
      created_at: now,
      updated_at: now,
      updated_by: actor.username,
    });
    await repo.insertRevision(trx, {
      item_id: id,
      revision: 1,
      action: 'created',
      changes: JSON.stringify([...SNAPSHOT_FIELDS]),
      restored_from: null,
      snapshot: JSON.stringify(snapshot),
      created_at: now,
      updated_by: actor.username,
    });
    return this.get(domain, id, trx);
  }

  /** Applies a snapshot as the next version with its revision; returns `before` itself when nothing changed. */
  private async write(
    trx: Executor,
    actor: Actor,
    before: ConfigItem,
    snapshot: ConfigSnapshot,
    how: { action: 'updated' | 'restored'; restoredFrom?: number },
  ): Promise<ConfigItem> {
    const changes = changedFields(snapshotOf(before), snapshot);
    if (changes.length === 0 && how.action === 'updated') return before;
    if (changes.includes('name')) {
      const clash = await repo.findItemByName(trx, before.domain, snapshot.name);
      if (clash && clash.id !== before.id) {
        throw new ConflictError(`A ${before.domain} item named '${snapshot.name}' already exists`);
      }
    }
    const now = nowIso();
    const version = before.version + 1;
    const written = await repo.updateItem(trx, before.id, before.version, {
      ...columnsOf(snapshot),
      version,
      updated_at: now,
      updated_by: actor.username,
    });
    if (!written) throw this.staleVersion(await this.get(before.domain, before.id, trx));
    await repo.insertRevision(trx, {
      item_id: before.id,
      revision: version,
      action: how.action,
      changes: JSON.stringify(changes),
      restored_from: how.restoredFrom ?? null,
      snapshot: JSON.stringify(snapshot),
      created_at: now,
      updated_by: actor.username,
    });
    return this.get(before.domain, before.id, trx);
  }
}
