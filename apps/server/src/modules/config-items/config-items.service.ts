import {
  CONFIG_DOMAINS,
  configSnapshotSchema,
  type ConfigDomain,
  type ConfigItem,
  type ConfigItemValues,
  type ConfigRevision,
  type ConfigSnapshot,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { VersionedEntity } from '../../db/versioned-entity.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import type { Clock } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import * as repo from './config-items.repository.js';

const SNAPSHOT_FIELDS = Object.keys(configSnapshotSchema.shape) as (keyof ConfigSnapshot)[];

/** The fields a revision keeps. */
export function snapshotOf(item: ConfigItemValues | ConfigItem): ConfigSnapshot {
  return Object.fromEntries(SNAPSHOT_FIELDS.map((field) => [field, item[field]])) as ConfigSnapshot;
}

/** What `upsertByName` did to an item. */
export type UpsertOutcome = 'created' | 'updated' | 'unchanged';

/**
 * Configuration items (docs/bot-developers/configuration-api.md, "Managing items"): every change is a new
 * version with a revision that keeps its snapshot, written only over the version the caller saw (409 with the
 * current item otherwise), and audited.
 */
export class ConfigItemsService {
  /** Items are looked up within their domain, so each domain has its own view of the mechanism. */
  private readonly versioned: Map<ConfigDomain, VersionedEntity<ConfigItem, ConfigSnapshot>>;

  constructor(
    private readonly db: Kysely<Database>,
    audit: AuditService,
    now: Clock,
  ) {
    this.versioned = new Map(
      CONFIG_DOMAINS.map((domain) => [
        domain,
        new VersionedEntity<ConfigItem, ConfigSnapshot>(audit, now, {
          store: repo.itemStore(domain),
          fields: SNAPSHOT_FIELDS,
          keepUnchangedSaves: false,
          notFound: (id) => new NotFoundError(`There is no ${domain} item ${id}`),
          stale: (current) =>
            new ConflictError(
              `${current.updated_by ?? 'Someone'} changed '${current.name}' since you loaded it (now version ${current.version}). ` +
                'Reload to see their change, or overwrite it knowingly.',
              current,
            ),
          audit: {
            resourceType: 'config_item',
            action: 'config',
            name: (item) => item.name,
            // The version names the revision a change made (a change marker links to it); a new item is
            // always version 1, so its entry keeps the values alone, as a template's does.
            view: (item, action) =>
              action === 'created'
                ? { domain: item.domain, ...snapshotOf(item) }
                : { domain: item.domain, version: item.version, ...snapshotOf(item) },
          },
        }),
      ]),
    );
  }

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
    return this.versionsOf(domain).get(this.db, id);
  }

  async create(actor: Actor, domainName: string, values: ConfigItemValues): Promise<ConfigItem> {
    const domain = this.domain(domainName);
    return this.db.transaction().execute(async (trx) => {
      await this.ensureNameFree(trx, domain, values.name);
      return this.versionsOf(domain).create(trx, actor, values);
    });
  }

  async update(actor: Actor, domainName: string, id: number, values: ConfigItemValues & { version: number }) {
    const versions = this.versionsOf(domainName);
    return this.db.transaction().execute(async (trx) => {
      const before = await versions.get(trx, id);
      versions.checkVersion(before, values.version);
      if (values.name !== before.name) await this.ensureNameFree(trx, before.domain, values.name, id);
      return versions.save(trx, actor, before, values);
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
    const versions = this.versionsOf(domain);
    const existing = await repo.findItemByName(trx, domain, snapshot.name);
    if (!existing) {
      await versions.create(trx, actor, snapshot, { audit: false });
      return 'created';
    }
    const after = await versions.save(trx, actor, existing, snapshot, { audit: false });
    return after === existing ? 'unchanged' : 'updated';
  }

  async remove(actor: Actor, domainName: string, id: number, version: number): Promise<void> {
    const versions = this.versionsOf(domainName);
    await this.db.transaction().execute(async (trx) => {
      await versions.remove(trx, actor, await versions.get(trx, id), version);
    });
  }

  async revisions(domain: string, id: number): Promise<ConfigRevision[]> {
    await this.get(domain, id);
    return repo.listRevisions(this.db, id);
  }

  async restore(actor: Actor, domainName: string, id: number, revision: number, version?: number) {
    const versions = this.versionsOf(domainName);
    return this.db.transaction().execute(async (trx) => {
      const before = await versions.get(trx, id);
      versions.checkVersion(before, version);
      const target = await repo.findRevision(trx, id, revision);
      if (!target) throw new NotFoundError(`Item ${id} has no revision ${revision}`);
      const { snapshot } = target;
      const clash = await repo.findItemByName(trx, before.domain, snapshot.name);
      if (clash && clash.id !== id) {
        throw new ConflictError(
          `Another ${before.domain} item is now named '${snapshot.name}'; rename it before restoring`,
        );
      }
      return versions.save(trx, actor, before, snapshot, { restoredFrom: revision });
    });
  }

  /** The names of those of `ids` that still exist (the audit log links to them). */
  currentNames(ids: number[]): Promise<Map<number, string>> {
    return repo.itemNamesById(this.db, ids);
  }

  private versionsOf(domainName: string): VersionedEntity<ConfigItem, ConfigSnapshot> {
    return this.versioned.get(this.domain(domainName))!;
  }

  private async ensureNameFree(db: Executor, domain: ConfigDomain, name: string, exceptId?: number) {
    const clash = await repo.findItemByName(db, domain, name);
    if (clash && clash.id !== exceptId) {
      throw new ConflictError(`A ${domain} item named '${name}' already exists`);
    }
  }
}
