import {
  MESSAGING_MESSAGES,
  TEMPLATE_FIELDS,
  type Template,
  type TemplateQuery,
  type TemplateSnapshot,
  type TemplateUpdate,
  type TemplateValues,
  type TemplateVersion,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../../db/database.js';
import { VersionedEntity } from '../../../db/versioned-entity.js';
import { ConflictError, NotFoundError, ValidationError } from '../../../lib/errors.js';
import type { Clock } from '../../../lib/time.js';
import type { Actor, AuditService } from '../../audit/audit.service.js';
import type { ChannelsService } from '../channels/channels.service.js';
import type { TemplateGuard } from '../rendering/template-guard.js';
import * as repo from './templates.repository.js';

/**
 * Message templates with every version kept (docs/bot-developers/deliveries.md, "Message templates"): each
 * save is a new version holding the content and settings, a save names the version it was edited from (409
 * with the current template when it is stale), and a restore brings an old version back as a new one.
 */
export class TemplatesService {
  private readonly versioned: VersionedEntity<Template, TemplateSnapshot>;

  constructor(
    private readonly db: Kysely<Database>,
    audit: AuditService,
    now: Clock,
    private readonly channels: ChannelsService,
    /** Refuses content that would render into a message Telegram refuses. */
    private readonly guard: TemplateGuard,
  ) {
    this.versioned = new VersionedEntity(audit, now, {
      store: repo.templateStore,
      fields: TEMPLATE_FIELDS,
      keepUnchangedSaves: true,
      notFound: (id) => new NotFoundError(`There is no message template ${id}`),
      stale: (current) =>
        new ConflictError(
          `${current.updated_by ?? 'Someone'} saved '${current.template_name}' since you loaded it (now version ${current.version}). ` +
            'Reload to see their change, then make yours again.',
          current,
        ),
      audit: {
        resourceType: 'template',
        action: 'template',
        name: (template) => template.template_name,
        // A new template is always version 1, so its entry keeps the content and settings alone.
        view: (template, action) => {
          const snapshot = this.versioned.snapshotOf(template);
          return action === 'created' ? snapshot : { version: template.version, ...snapshot };
        },
      },
    });
  }

  list(query: TemplateQuery): Promise<Template[]> {
    return repo.listTemplates(this.db, query);
  }

  get(id: number): Promise<Template> {
    return this.versioned.get(this.db, id);
  }

  /** The template a request names, by id or else by name: a missing one is a 422 on that field. */
  async requireForField(ref: { id?: number; name?: string }): Promise<Template> {
    if (ref.id !== undefined) {
      const found = await repo.findTemplate(this.db, ref.id);
      if (!found) throw ValidationError.field('template_id', `There is no message template ${ref.id}`);
      return found;
    }
    const name = ref.name ?? '';
    const found = await repo.findTemplateByName(this.db, name);
    if (!found) throw ValidationError.field('template_name', `There is no message template named '${name}'`);
    return found;
  }

  async create(actor: Actor, values: TemplateValues): Promise<Template> {
    await this.guard.check(values.template_content, values.parse_mode, {
      splits: values.split_long_messages,
    });
    return this.db.transaction().execute(async (trx) => {
      await this.ensureNameFree(trx, values.template_name);
      await this.checkTarget(trx, values);
      return this.versioned.create(trx, actor, values);
    });
  }

  /**
   * Every save is a new version; fields left out keep their values. Changed content or parse mode is
   * checked first, outside the transaction: a rendering takes the worker's time, not the database's.
   */
  async update(actor: Actor, id: number, update: TemplateUpdate): Promise<Template> {
    const checked = [update.template_content, update.parse_mode, update.split_long_messages];
    if (checked.some((field) => field !== undefined)) {
      const current = await this.get(id);
      const content = update.template_content ?? current.template_content;
      const parseMode = update.parse_mode ?? current.parse_mode;
      const splits = update.split_long_messages ?? current.split_long_messages;
      if (
        content !== current.template_content ||
        parseMode !== current.parse_mode ||
        (current.split_long_messages && !splits)
      ) {
        await this.guard.check(content, parseMode, { splits });
      }
    }
    return this.db.transaction().execute(async (trx) => {
      const before = await this.versioned.get(trx, id);
      this.versioned.checkVersion(before, update.version);
      const { version: _version, description, ...fields } = update;
      const defined = Object.fromEntries(
        Object.entries(fields).filter(([, v]) => v !== undefined),
      ) as Partial<TemplateSnapshot>;
      const snapshot: TemplateSnapshot = {
        ...this.versioned.snapshotOf(before),
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
      return this.versioned.save(trx, actor, before, snapshot);
    });
  }

  /**
   * Marks the template deleted if it is still at `version` (409 otherwise): it is then seen nowhere and
   * its name is free, while its versions and test sends stay for the audit.
   */
  async remove(actor: Actor, id: number, version: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.versioned.remove(trx, actor, await this.versioned.get(trx, id), version);
    });
  }

  async versions(id: number): Promise<TemplateVersion[]> {
    await this.get(id);
    return repo.listVersions(this.db, id);
  }

  async version(id: number, version: number): Promise<TemplateVersion> {
    await this.get(id);
    return this.findVersion(this.db, id, version);
  }

  /**
   * Brings a version's content and settings back as a new version, if it would still render into a message
   * Telegram accepts (422 otherwise, as for a save).
   */
  async restore(actor: Actor, id: number, version: number, expectedVersion?: number): Promise<Template> {
    const old = await this.version(id, version);
    await this.guard.check(old.snapshot.template_content, old.snapshot.parse_mode, {
      splits: old.snapshot.split_long_messages,
      what: `Version ${version} cannot be restored`,
    });
    return this.db.transaction().execute(async (trx) => {
      const before = await this.versioned.get(trx, id);
      this.versioned.checkVersion(before, expectedVersion);
      const { snapshot } = await this.findVersion(trx, id, version);
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
      return this.versioned.save(trx, actor, before, snapshot, { restoredFrom: version });
    });
  }

  private async findVersion(db: Executor, id: number, version: number): Promise<TemplateVersion> {
    const found = await repo.findVersion(db, id, version);
    if (!found) throw new NotFoundError(`Message template ${id} has no version ${version}`);
    return found;
  }

  private async ensureNameFree(db: Executor, name: string) {
    const clash = await repo.findTemplateByName(db, name);
    if (clash) throw new ConflictError(`A message template named '${clash.template_name}' already exists`);
  }

  /** The names of those of `ids` that exist and are not deleted (the audit log links to them). */
  currentNames(ids: number[]): Promise<Map<number, string>> {
    return repo.templateNamesById(this.db, ids);
  }

  /** The channel exists and the topic, if any, is one of its topics (422 on the field otherwise). */
  private async checkTarget(db: Executor, snapshot: TemplateSnapshot) {
    const channel = await this.channels.requireForField(db, snapshot.channel_id, 'channel_id');
    if (snapshot.topic_id !== null) {
      await this.channels.requireTopicOfChannel(db, channel, snapshot.topic_id, 'topic_id');
    }
  }
}
