import { randomBytes } from 'node:crypto';
import {
  type AlertNotification,
  type AlertNotificationListResponse,
  type ContactPoint,
  type ContactPointCreated,
  type ContactPointUpdate,
  type ContactPointValues,
} from '@lumi/contract';
import type { Kysely, Transaction } from 'kysely';
import { AuditedEntity } from '../../db/audited-entity.js';
import type { Database, Executor } from '../../db/database.js';
import { lockForTransaction } from '../../db/locks.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { isoTime, type Clock } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { ChannelsService } from '../messaging/channels/channels.service.js';
import type { TemplatesService } from '../messaging/templates/templates.service.js';
import { contactPointLock } from './alert-rules.service.js';
import type { AlertTemplates } from './alert-templates.js';
import type { AlertNotifier } from './alert-notifier.js';
import * as contactPointsRepo from './storage/contact-points.repository.js';
import * as notificationsRepo from './storage/notifications.repository.js';

/** "'A', 'B' and 2 more": rules named in a refusal. */
function nameList(names: string[]): string {
  const shown = names.slice(0, 5).map((n) => `'${n}'`);
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

function toContactPoint(row: contactPointsRepo.ContactPointRecord): ContactPoint {
  const { secret: _secret, ...rest } = row;
  return rest;
}

/**
 * Contact points (docs/bot-developers/alerts.md, "Contact points"): a Telegram chat the alert is sent to
 * through the delivery pipeline, or a webhook URL it is POSTed to, signed with a secret made here and shown
 * once. Every change is audited (never the secret).
 */
export class ContactPointsService {
  private readonly points: AuditedEntity<ContactPoint>;

  constructor(
    private readonly db: Kysely<Database>,
    audit: AuditService,
    private readonly now: Clock,
    private readonly channels: ChannelsService,
    private readonly templates: TemplatesService,
    private readonly alertTemplates: AlertTemplates,
    private readonly notifier: AlertNotifier,
  ) {
    this.points = new AuditedEntity(audit, {
      load: (db, id) => this.load(db, id),
      delete: contactPointsRepo.deleteContactPoint,
      resourceType: 'alert_contact_point',
      name: (point) => point.name,
    });
  }

  async list(): Promise<ContactPoint[]> {
    return (await contactPointsRepo.listContactPoints(this.db)).map(toContactPoint);
  }

  get(id: number): Promise<ContactPoint> {
    return this.load(this.db, id);
  }

  /** A webhook's answer carries its signing secret, this once. */
  async create(actor: Actor, values: ContactPointValues): Promise<ContactPointCreated> {
    await this.checkTemplate(values);
    const secret = values.type === 'webhook' ? randomBytes(32).toString('hex') : null;
    const created = await this.db.transaction().execute((trx) =>
      this.points.create(trx, actor, async () => {
        await this.checkTarget(trx, values);
        return contactPointsRepo.insertContactPoint(trx, values, secret, {
          at: isoTime(this.now()),
          by: actor.username,
        });
      }),
    );
    if (values.type === 'telegram' && values.template_id === null) {
      await this.alertTemplates.ensure(values.channel_id);
    }
    return { ...created, secret };
  }

  /** The type stays; fields left out keep their values, and fields of the other type are refused. */
  async update(actor: Actor, id: number, update: ContactPointUpdate): Promise<ContactPoint> {
    const current = await this.get(id);
    const values = merged(current, update);
    await this.checkTemplate(values);
    return this.db.transaction().execute((trx) =>
      this.points.update(trx, actor, id, async () => {
        await this.checkTarget(trx, values);
        await contactPointsRepo.updateContactPoint(trx, id, values, {
          at: isoTime(this.now()),
          by: actor.username,
        });
      }),
    );
  }

  /** Refused while rules notify it (409 naming them); its notifications go with it. */
  async remove(actor: Actor, id: number): Promise<void> {
    await this.db.transaction().execute((trx) =>
      this.points.remove(trx, actor, id, async (point) => {
        await lockForTransaction(trx, [contactPointLock(id)]);
        const rules = await contactPointsRepo.rulesUsingContactPoint(trx, id);
        if (rules.length > 0) {
          const which = rules.length === 1 ? 'the rule' : `${rules.length} rules:`;
          throw new ConflictError(
            `The contact point '${point.name}' is used by ${which} ${nameList(rules)}. ` +
              'Choose another contact point for them or delete them first.',
          );
        }
      }),
    );
  }

  /** "Send test notification": a webhook is tried once at once; a Telegram delivery is queued. */
  async test(id: number): Promise<AlertNotification> {
    return this.notifier.test(await this.get(id));
  }

  async notifications(
    id: number,
    page: { cursor?: number; limit: number },
  ): Promise<AlertNotificationListResponse> {
    await this.get(id);
    const rows = await notificationsRepo.listNotifications(this.db, id, page);
    const shown = rows.slice(0, page.limit);
    return {
      notifications: await this.notifier.settled(shown),
      next_cursor: rows.length > page.limit ? (shown.at(-1)?.id ?? null) : null,
    };
  }

  private async load(db: Executor, id: number): Promise<ContactPoint> {
    const row = await contactPointsRepo.findContactPoint(db, id);
    if (!row) throw new NotFoundError(`There is no contact point ${id}`);
    return toContactPoint(row);
  }

  /** TemplatesService reads outside any transaction, so the template is checked before it starts. */
  private async checkTemplate(values: ContactPointValues) {
    if (values.type === 'telegram' && values.template_id !== null) {
      await this.templates.requireForField({ id: values.template_id });
    }
  }

  /** A Telegram contact point's channel exists, and its topic is one of the channel's (422 otherwise). */
  private async checkTarget(trx: Transaction<Database>, values: ContactPointValues) {
    if (values.type !== 'telegram') return;
    const channel = await this.channels.requireForField(trx, values.channel_id, 'channel_id');
    if (values.topic_id !== null) {
      await this.channels.requireTopicOfChannel(trx, channel, values.topic_id, 'topic_id');
    }
  }
}

/** The contact point with an update's fields; those of the other type are a 422 naming the field. */
function merged(current: ContactPoint, update: ContactPointUpdate): ContactPointValues {
  const name = update.name ?? current.name;
  if (current.type === 'webhook') {
    for (const field of ['channel_id', 'topic_id', 'template_id'] as const) {
      if (update[field] !== undefined) {
        throw ValidationError.field(field, `A webhook contact point has no ${field}; it posts to its URL`);
      }
    }
    return { name, type: 'webhook', url: update.url ?? current.url ?? '' };
  }
  if (update.url !== undefined) {
    throw ValidationError.field('url', 'A Telegram contact point has no URL; it sends to its channel');
  }
  return {
    name,
    type: 'telegram',
    channel_id: update.channel_id ?? current.channel_id ?? 0,
    topic_id: update.topic_id === undefined ? current.topic_id : update.topic_id,
    template_id: update.template_id === undefined ? current.template_id : update.template_id,
  };
}
