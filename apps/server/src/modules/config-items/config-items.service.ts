import {
  CONFIG_DOMAINS,
  type ConfigDomain,
  type ConfigItem,
  type ConfigItemValues,
  type ConfigRevision,
  type ConfigSnapshot,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { isoTime, type Clock } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import * as repo from './config-items.repository.js';

const SNAPSHOT_FIELDS = ['name', 'description', 'content', 'is_active', 'tags', 'priority'] as const;

/** The fields a revision keeps. */
export function snapshotOf(item: ConfigItemValues | ConfigItem): ConfigSnapshot {
  const { name, description, content, is_active, tags, priority } = item;
  return { name, description, content, is_active, tags, priority };
}

function changedFields(before: ConfigSnapshot, after: ConfigSnapshot): string[] {
  return SNAPSHOT_FIELDS.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/** What `upsertByName` did to an item. */
export type UpsertOutcome = 'created' | 'updated' | 'unchanged';

/**
 * Configuration items (issue 2): every change is a new version with a revision that keeps its snapshot,
 * written only over the version the caller saw (409 with the current item otherwise), and audited.
 */
export class ConfigItemsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: Clock,
  ) {}

  /** An unknown domain is a 404 that names the valid ones. */
  domain(name: string): ConfigDomain {
    if ((CONFIG_DOMAINS as readonly string[]).includes(name)) return name as ConfigDomain;
    throw new NotFoundError(
      `Unknown configuration domain '${name}'. Valid domains: ${CONFIG_DOMAINS.join(', ')}`,
    );
  }

  list(domain: string): Promise<ConfigItem[]> {
    return repo.listItems(this.db, this.domain(domain));
  }

  /** Every active item of every domain. */
  listActive(): Promise<ConfigItem[]> {
    return repo.listActiveItems(this.db);
  }

  get(domain: string, id: number): Promise<ConfigItem> {
    return this.load(this.db, domain, id);
  }

  private async load(db: Executor, domain: string, id: number): Promise<ConfigItem> {
    const item = await repo.findItem(db, this.domain(domain), id);
    if (!item) throw new NotFoundError(`There is no ${domain} item ${id}`);
    return item;
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
      const before = await this.load(trx, domain, id);
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

  /**
   * Within the caller's transaction: the item of `domain` named like `snapshot` takes it as its next
   * version, or a new item is created with it (for imports, which audit the whole run themselves).
   */
  async upsertByName(
    trx: Executor,
    actor: Actor,
    domain: ConfigDomain,
    snapshot: ConfigSnapshot,
  ): Promise<UpsertOutcome> {
    const existing = await repo.findItemByName(trx, domain, snapshot.name);
    if (!existing) {
      await this.insert(trx, actor, domain, snapshot);
      return 'created';
    }
    const after = await this.write(trx, actor, existing, snapshot, { action: 'updated' });
    return after === existing ? 'unchanged' : 'updated';
  }

  async remove(actor: Actor, domainName: string, id: number, version: number): Promise<void> {
    const domain = this.domain(domainName);
    await this.db.transaction().execute(async (trx) => {
      const item = await this.load(trx, domain, id);
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
    return repo.listRevisions(this.db, id);
  }

  async restore(actor: Actor, domainName: string, id: number, revision: number, version?: number) {
    const domain = this.domain(domainName);
    return this.db.transaction().execute(async (trx) => {
      const before = await this.load(trx, domain, id);
      if (version !== undefined && before.version !== version) throw this.staleVersion(before);
      const target = await repo.findRevision(trx, id, revision);
      if (!target) throw new NotFoundError(`Item ${id} has no revision ${revision}`);
      const { snapshot } = target;
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
    const stamp = { at: isoTime(this.now()), by: actor.username };
    const id = await repo.insertItem(trx, domain, snapshot, stamp);
    await repo.insertRevision(
      trx,
      id,
      { revision: 1, action: 'created', changes: [...SNAPSHOT_FIELDS], restored_from: null, snapshot },
      stamp,
    );
    return this.load(trx, domain, id);
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
    const stamp = { at: isoTime(this.now()), by: actor.username };
    if (!(await repo.updateItem(trx, before.id, before.version, snapshot, stamp))) {
      throw this.staleVersion(await this.load(trx, before.domain, before.id));
    }
    await repo.insertRevision(
      trx,
      before.id,
      {
        revision: before.version + 1,
        action: how.action,
        changes,
        restored_from: how.restoredFrom ?? null,
        snapshot,
      },
      stamp,
    );
    return this.load(trx, before.domain, before.id);
  }
}
