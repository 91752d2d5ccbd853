import {
  MESSAGING_MESSAGES,
  type Template,
  type TemplateQuery,
  type TemplateSnapshot,
  type TemplateUpdate,
  type TemplateValues,
  type TemplateVersion,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../../db/database.js';
import type { TemplateRow, TemplateVersionRow } from '../../../db/messaging-tables.js';
import { ConflictError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import { isoTime, type Clock } from '../../../lib/time.js';
import type { Actor, AuditService } from '../../audit/audit.service.js';
import type { ChannelsService } from '../channels/channels.service.js';
import * as repo from './templates.repository.js';

const SNAPSHOT_FIELDS = [
  'template_name',
  'channel_id',
  'topic_id',
  'template_content',
  'message_type',
  'parse_mode',
  'disable_web_preview',
  'disable_notification',
  'allow_pinning',
  'pin_by_default',
  'enabled',
  'description',
] as const;

function toTemplate(row: TemplateRow): Template {
  return {
    id: row.id,
    ...snapshotOfRow(row),
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
    updated_by: row.updated_by,
  };
}

function snapshotOfRow(row: TemplateRow): TemplateSnapshot {
  return {
    template_name: row.template_name,
    channel_id: row.channel_id,
    topic_id: row.topic_id,
    template_content: row.template_content,
    message_type: row.message_type,
    parse_mode: row.parse_mode,
    disable_web_preview: row.disable_web_preview === 1,
    disable_notification: row.disable_notification === 1,
    allow_pinning: row.allow_pinning === 1,
    pin_by_default: row.pin_by_default === 1,
    enabled: row.enabled === 1,
    description: row.description,
  };
}

function snapshotOf(values: TemplateSnapshot): TemplateSnapshot {
  return Object.fromEntries(SNAPSHOT_FIELDS.map((f) => [f, values[f]])) as TemplateSnapshot;
}

function columnsOf(s: TemplateSnapshot) {
  return {
    ...s,
    template_name_key: s.template_name.toLowerCase(),
    disable_web_preview: s.disable_web_preview ? 1 : 0,
    disable_notification: s.disable_notification ? 1 : 0,
    allow_pinning: s.allow_pinning ? 1 : 0,
    pin_by_default: s.pin_by_default ? 1 : 0,
    enabled: s.enabled ? 1 : 0,
  };
}

function toVersion(row: TemplateVersionRow): TemplateVersion {
  return {
    version: row.version,
    created_at: row.created_at,
    updated_by: row.updated_by,
    action: row.action as TemplateVersion['action'],
    changes: JSON.parse(row.changes) as string[],
    restored_from: row.restored_from,
    snapshot: JSON.parse(row.snapshot) as TemplateSnapshot,
  };
}

/**
 * Message templates with every version kept (issue 5, "Templates"): each save is a new version holding
 * the content and settings, a save names the version it was edited from (409 with the current template
 * when it is stale), and a restore brings an old version back as a new one.
 */
export class TemplatesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: Clock,
    private readonly channels: ChannelsService,
  ) {}

  async list(query: TemplateQuery): Promise<Template[]> {
    return (await repo.listTemplates(this.db, query)).map(toTemplate);
  }

  get(id: number): Promise<Template> {
    return this.load(this.db, id);
  }

  private async load(db: Executor, id: number): Promise<Template> {
    const row = await repo.findTemplate(db, id);
    if (!row) throw new NotFoundError(`There is no message template ${id}`);
    return toTemplate(row);
  }

  async create(actor: Actor, values: TemplateValues): Promise<Template> {
    const snapshot = snapshotOf(values);
    return this.db.transaction().execute(async (trx) => {
      await this.ensureNameFree(trx, snapshot.template_name);
      await this.checkTarget(trx, snapshot);
      const now = isoTime(this.now());
      const id = await repo.insertTemplate(trx, {
        ...columnsOf(snapshot),
        version: 1,
        created_at: now,
        updated_at: now,
        updated_by: actor.username,
      });
      await repo.insertVersion(trx, {
        template_id: id,
        version: 1,
        action: 'created',
        changes: JSON.stringify(SNAPSHOT_FIELDS),
        restored_from: null,
        snapshot: JSON.stringify(snapshot),
        created_at: now,
        updated_by: actor.username,
      });
      const template = await this.load(trx, id);
      await this.audit.record(trx, actor, {
        action: 'template.created',
        resourceType: 'template',
        resourceId: id,
        newValue: snapshot,
      });
      return template;
    });
  }

  /** Every save is a new version; fields left out keep their values. */
  async update(actor: Actor, id: number, update: TemplateUpdate): Promise<Template> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.load(trx, id);
      if (before.version !== update.version) throw this.staleVersion(before);
      const { version: _version, description, ...fields } = update;
      const defined = Object.fromEntries(
        Object.entries(fields).filter(([, v]) => v !== undefined),
      ) as Partial<TemplateSnapshot>;
      const snapshot: TemplateSnapshot = {
        ...snapshotOf(before),
        ...defined,
        ...(description !== undefined && { description: description ?? '' }),
      };
      if (snapshot.pin_by_default && !snapshot.allow_pinning) {
        throw ValidationError.field('pin_by_default', MESSAGING_MESSAGES.pinNeedsAllowPinning);
      }
      if (snapshot.template_name.toLowerCase() !== before.template_name.toLowerCase()) {
        await this.ensureNameFree(trx, snapshot.template_name);
      }
      await this.checkTarget(trx, snapshot);
      const after = await this.write(trx, actor, before, snapshot, { action: 'updated' });
      await this.audit.record(trx, actor, {
        action: 'template.updated',
        resourceType: 'template',
        resourceId: id,
        oldValue: { version: before.version, ...snapshotOf(before) },
        newValue: { version: after.version, ...snapshot },
      });
      return after;
    });
  }

  /** `version`, when given, must be the current one. */
  async remove(actor: Actor, id: number, version?: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const template = await this.load(trx, id);
      const expected = version ?? template.version;
      if (template.version !== expected || !(await repo.deleteTemplate(trx, id, expected))) {
        throw this.staleVersion(await this.load(trx, id));
      }
      await this.audit.record(trx, actor, {
        action: 'template.deleted',
        resourceType: 'template',
        resourceId: id,
        oldValue: { version: template.version, ...snapshotOf(template) },
      });
    });
  }

  async versions(id: number): Promise<TemplateVersion[]> {
    await this.get(id);
    return (await repo.listVersions(this.db, id)).map(toVersion);
  }

  async version(id: number, version: number): Promise<TemplateVersion> {
    await this.get(id);
    const row = await repo.findVersion(this.db, id, version);
    if (!row) throw new NotFoundError(`Message template ${id} has no version ${version}`);
    return toVersion(row);
  }

  /** Brings a version's content and settings back as a new version. */
  async restore(actor: Actor, id: number, version: number, expectedVersion?: number): Promise<Template> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.load(trx, id);
      if (expectedVersion !== undefined && before.version !== expectedVersion)
        throw this.staleVersion(before);
      const row = await repo.findVersion(trx, id, version);
      if (!row) throw new NotFoundError(`Message template ${id} has no version ${version}`);
      const snapshot = snapshotOf(JSON.parse(row.snapshot) as TemplateSnapshot);
      try {
        if (snapshot.template_name.toLowerCase() !== before.template_name.toLowerCase()) {
          await this.ensureNameFree(trx, snapshot.template_name);
        }
        await this.checkTarget(trx, snapshot);
      } catch (error) {
        // What was valid then may not be now (a renamed template took the name, a topic was deleted).
        if (!(error instanceof ValidationError || error instanceof ConflictError)) throw error;
        throw new ConflictError(`Version ${version} cannot be restored as it is: ${error.message}`);
      }
      const after = await this.write(trx, actor, before, snapshot, {
        action: 'restored',
        restoredFrom: version,
      });
      await this.audit.record(trx, actor, {
        action: 'template.restored',
        resourceType: 'template',
        resourceId: id,
        oldValue: { version: before.version, ...snapshotOf(before) },
        newValue: { version: after.version, restored_from: version, ...snapshot },
      });
      return after;
    });
  }

  private staleVersion(current: Template): ConflictError {
    return new ConflictError(
      `${current.updated_by ?? 'Someone'} saved '${current.template_name}' since you loaded it (now version ${current.version}). ` +
        'Reload to see their change, then make yours again.',
      current,
    );
  }

  private async ensureNameFree(db: Executor, name: string) {
    const clash = await repo.findTemplateByName(db, name);
    if (clash) throw new ConflictError(`A message template named '${clash.template_name}' already exists`);
  }

  /** The channel exists and the topic, if any, is one of its topics (422 on the field otherwise). */
  private async checkTarget(db: Executor, snapshot: TemplateSnapshot) {
    const channel = await this.channels.requireForField(db, snapshot.channel_id, 'channel_id');
    if (snapshot.topic_id !== null) {
      await this.channels.requireTopicOfChannel(db, channel, snapshot.topic_id, 'topic_id');
    }
  }

  private async write(
    trx: Executor,
    actor: Actor,
    before: Template,
    snapshot: TemplateSnapshot,
    how: { action: 'updated' | 'restored'; restoredFrom?: number },
  ): Promise<Template> {
    const now = isoTime(this.now());
    const version = before.version + 1;
    const written = await repo.updateTemplate(trx, before.id, before.version, {
      ...columnsOf(snapshot),
      version,
      updated_at: now,
      updated_by: actor.username,
    });
    if (!written) throw this.staleVersion(await this.load(trx, before.id));
    const previous = snapshotOf(before);
    await repo.insertVersion(trx, {
      template_id: before.id,
      version,
      action: how.action,
      changes: JSON.stringify(SNAPSHOT_FIELDS.filter((f) => previous[f] !== snapshot[f])),
      restored_from: how.restoredFrom ?? null,
      snapshot: JSON.stringify(snapshot),
      created_at: now,
      updated_by: actor.username,
    });
    return this.load(trx, before.id);
  }
}
