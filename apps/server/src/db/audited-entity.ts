import type { AuditResourceType } from '@lumi/contract';
import { ConflictError } from '../lib/errors.js';
import type { Actor, AuditService } from '../modules/audit/audit.service.js';
import type { Transaction } from 'kysely';
import type { Database } from './database.js';
import { lockForTransaction } from './locks.js';

export interface AuditedEntityOptions<E, K> {
  /** The entity as answers carry it, or the service's 404. */
  load(db: Transaction<Database>, key: K): Promise<E>;
  /** Deletes the entity's row (what goes with it, its foreign keys take); false when there was none. */
  delete(db: Transaction<Database>, key: K): Promise<boolean>;
  resourceType: AuditResourceType;
  /** The actions are `<action>.created`, `.updated` and `.deleted`; `action` is the resource type unless given. */
  action?: string;
  /** The entity's name, kept with each entry so the log reads well after the entity is gone. */
  name(entity: E): string;
}

/**
 * An entity whose every change is audited with the entity before and after it (channels, topics,
 * variables, roles, alert rules, contact points, silences; versioned-entity.ts does the same with
 * versions). Each change runs in the caller's transaction, so the entry lands with the change or not at
 * all; the service's own checks and SQL come in as callbacks, between the reads. Changes of one entity take
 * turns from before it is read (lockForTransaction), so each entry's "before" is the entity as the change
 * before it left it, on PostgreSQL too. A change the database refuses for a key another request took
 * meanwhile is the error layer's 409 (db/constraints.ts).
 */
export class AuditedEntity<E extends { id: number }, K = number> {
  constructor(
    private readonly audit: AuditService,
    private readonly options: AuditedEntityOptions<E, K>,
  ) {}

  /** `insert` adds the row and returns its key; the new entity is read back and audited. */
  async create(trx: Transaction<Database>, actor: Actor, insert: () => Promise<K>): Promise<E> {
    const created = await this.options.load(trx, await insert());
    await this.record(trx, actor, 'created', created, { newValue: created });
    return created;
  }

  /** `write` checks and changes the entity it is given; the entity is read back and both sides audited. */
  async update(
    trx: Transaction<Database>,
    actor: Actor,
    key: K,
    write: (before: E) => Promise<void>,
  ): Promise<E> {
    await this.takeTurn(trx, key);
    const before = await this.options.load(trx, key);
    await write(before);
    const after = await this.options.load(trx, key);
    await this.record(trx, actor, 'updated', after, { oldValue: before, newValue: after });
    return after;
  }

  /**
   * Deletes the entity, once: of requests deleting it at once, one does and is audited, the rest get the
   * service's 404, on either database. `check` refuses (a 409 while something uses it) and does what must
   * go first; it may return more for the log to keep of the entity (what went with it).
   */
  async remove(
    trx: Transaction<Database>,
    actor: Actor,
    key: K,
    check?: (entity: E) => Promise<Record<string, unknown> | void>,
  ): Promise<void> {
    await this.takeTurn(trx, key);
    const entity = await this.options.load(trx, key);
    const alongside = await check?.(entity);
    if (!(await this.options.delete(trx, key))) {
      // Another request deleted it since it was read: PostgreSQL ran both at once, and this DELETE waited
      // for that one to commit and found nothing. A read now sees it gone: the service's 404.
      await this.options.load(trx, key);
      throw new ConflictError(`'${this.options.name(entity)}' changed while it was being deleted; try again`);
    }
    await this.record(trx, actor, 'deleted', entity, { oldValue: { ...entity, ...alongside } });
  }

  /** Waits for the other changes of this entity under way to end (a no-op on SQLite, which runs one at a time). */
  private takeTurn(trx: Transaction<Database>, key: K) {
    return lockForTransaction(trx, [`lumi:${this.options.resourceType}:${JSON.stringify(key)}`]);
  }

  private record(
    trx: Transaction<Database>,
    actor: Actor,
    action: 'created' | 'updated' | 'deleted',
    entity: E,
    values: { oldValue?: unknown; newValue?: unknown },
  ) {
    const { resourceType, name } = this.options;
    const event = {
      action: `${this.options.action ?? resourceType}.${action}`,
      resourceType,
      resourceId: entity.id,
      resourceName: name(entity),
    };
    return this.audit.record(trx, actor, { ...event, ...values });
  }
}
