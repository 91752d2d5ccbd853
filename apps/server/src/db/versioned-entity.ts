import type { AuditResourceType } from '@lumi/contract';
import type { ConflictError } from '../lib/errors.js';
import { isoTime, type Clock } from '../lib/time.js';
import type { Actor, AuditService } from '../modules/audit/audit.service.js';
import type { Executor } from './database.js';

/** Who wrote a version, and when. */
export interface Stamp {
  at: string;
  by: string | null;
}

/** One version as the history keeps it. */
export interface VersionEntry<S> {
  version: number;
  action: 'created' | 'updated' | 'restored';
  /** The fields that differ from the version before (every field for the first). */
  changes: string[];
  restored_from: number | null;
  snapshot: S;
}

/**
 * The repository's side of a versioned entity: its SQL and its storage encoding, so the helper hands it
 * and takes from it domain values only. versionedStore (versioned-tables.ts) builds one from a
 * repository's own reads and inserts.
 */
export interface VersionedStore<E, S> {
  find(db: Executor, id: number): Promise<E | undefined>;
  /** A new row at version 1; returns its id. */
  insert(db: Executor, snapshot: S, stamp: Stamp): Promise<number>;
  /** Writes `snapshot` as version `expected + 1` only while the row is at `expected`; false otherwise. */
  update(db: Executor, id: number, expected: number, snapshot: S, stamp: Stamp): Promise<boolean>;
  /**
   * Deletes the row only while it is at `expected`; false otherwise. A store may delete its history with
   * it, or only mark the row deleted by `stamp` (templates), so that its find no longer sees it.
   */
  remove(db: Executor, id: number, expected: number, stamp: Stamp): Promise<boolean>;
  insertVersion(db: Executor, id: number, entry: VersionEntry<S>, stamp: Stamp): Promise<void>;
}

export interface VersionedEntityOptions<E, S> {
  store: VersionedStore<E, S>;
  /** The fields a version keeps (its snapshot), in the order they are listed. */
  fields: readonly (keyof S & string)[];
  /** Whether a save that changes nothing still makes a version; a restore always does. */
  keepUnchangedSaves: boolean;
  notFound(id: number): Error;
  /** The 409 for a caller who saw an older version; it carries the entity as it is now. */
  stale(current: E): ConflictError;
  audit: {
    resourceType: AuditResourceType;
    /** The actions are `<action>.created`, `.updated`, `.restored` and `.deleted`. */
    action: string;
    /** The entity's name, kept with each entry so the log reads well after the entity is gone. */
    name(entity: E): string;
    /** What the log keeps of the entity, before or after a change. */
    view(entity: E, action: VersionEntry<S>['action'] | 'deleted'): Record<string, unknown>;
  };
}

/**
 * An entity kept with every version (config items, message templates; schedules and alert rules next):
 * each write names the version it was made from and fails with 409 when another write came first
 * (optimistic concurrency, checked again by the UPDATE itself, so it holds on both databases and across
 * instances), keeps a snapshot of the new version with the fields that changed, and is audited, all in the
 * caller's transaction. The service keeps its own rules (names, references) and runs them before a write.
 */
export class VersionedEntity<E extends S & { id: number; version: number }, S> {
  constructor(
    private readonly audit: AuditService,
    private readonly now: Clock,
    private readonly options: VersionedEntityOptions<E, S>,
  ) {}

  /** The snapshot fields of `values`, and nothing else. */
  snapshotOf(values: S): S {
    return Object.fromEntries(this.options.fields.map((field) => [field, values[field]])) as S;
  }

  async get(db: Executor, id: number): Promise<E> {
    const entity = await this.options.store.find(db, id);
    if (!entity) throw this.options.notFound(id);
    return entity;
  }

  /** 409 unless `current` is still at the version the caller saw (no check when it named none). */
  checkVersion(current: E, expected: number | undefined): void {
    if (expected !== undefined && current.version !== expected) throw this.options.stale(current);
  }

  /** A new entity at version 1. Imports, which audit their whole run, pass `audit: false`. */
  async create(trx: Executor, actor: Actor, values: S, { audit = true } = {}): Promise<E> {
    const snapshot = this.snapshotOf(values);
    const stamp = this.stamp(actor);
    const id = await this.options.store.insert(trx, snapshot, stamp);
    const changes = [...this.options.fields];
    await this.options.store.insertVersion(
      trx,
      id,
      { version: 1, action: 'created', changes, restored_from: null, snapshot },
      stamp,
    );
    const created = await this.get(trx, id);
    if (audit) await this.record(trx, actor, 'created', id, { after: created });
    return created;
  }

  /**
   * Writes `values` as the version after `before`: the entity as read in this transaction, at the version
   * the caller saw (checkVersion). With `restoredFrom`, `values` is that old version's snapshot brought
   * back. Returns `before` itself when nothing changed and the entity keeps no unchanged saves.
   */
  async save(
    trx: Executor,
    actor: Actor,
    before: E,
    values: S,
    { restoredFrom, audit = true }: { restoredFrom?: number; audit?: boolean } = {},
  ): Promise<E> {
    const snapshot = this.snapshotOf(values);
    const changes = this.options.fields.filter(
      (field) => JSON.stringify(before[field]) !== JSON.stringify(snapshot[field]),
    );
    const action = restoredFrom === undefined ? 'updated' : 'restored';
    if (changes.length === 0 && action === 'updated' && !this.options.keepUnchangedSaves) return before;
    const stamp = this.stamp(actor);
    if (!(await this.options.store.update(trx, before.id, before.version, snapshot, stamp))) {
      throw this.options.stale(await this.get(trx, before.id));
    }
    await this.options.store.insertVersion(
      trx,
      before.id,
      { version: before.version + 1, action, changes, restored_from: restoredFrom ?? null, snapshot },
      stamp,
    );
    const after = await this.get(trx, before.id);
    if (audit) await this.record(trx, actor, action, before.id, { before, after, restoredFrom });
    return after;
  }

  /** Deletes `current` (read in this transaction) if it is still at `expected`, or at the version read. */
  async remove(trx: Executor, actor: Actor, current: E, expected?: number): Promise<void> {
    this.checkVersion(current, expected);
    if (!(await this.options.store.remove(trx, current.id, current.version, this.stamp(actor)))) {
      throw this.options.stale(await this.get(trx, current.id));
    }
    await this.record(trx, actor, 'deleted', current.id, { before: current });
  }

  private stamp(actor: Actor): Stamp {
    return { at: isoTime(this.now()), by: actor.username };
  }

  private record(
    trx: Executor,
    actor: Actor,
    action: VersionEntry<S>['action'] | 'deleted',
    id: number,
    change: { before?: E; after?: E; restoredFrom?: number },
  ) {
    const { resourceType, view, name } = this.options.audit;
    const { before, after, restoredFrom } = change;
    const named = after ?? before;
    return this.audit.record(trx, actor, {
      action: `${this.options.audit.action}.${action}`,
      resourceType,
      resourceId: id,
      resourceName: named && name(named),
      oldValue: before && view(before, action),
      newValue: after && {
        ...view(after, action),
        ...(restoredFrom !== undefined && { restored_from: restoredFrom }),
      },
    });
  }
}
