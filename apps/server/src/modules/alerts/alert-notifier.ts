import {
  DEFAULT_ALERT_TEMPLATE_NAME,
  type AlertNotification,
  type AlertWebhookBody,
  type ContactPoint,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { AlertContactPointRow, AlertNotificationRow } from '../../db/alert-tables.js';
import type { Database } from '../../db/database.js';
import { isRefusal, NotFoundError } from '../../lib/errors.js';
import { isoAfter, isoTime, type Clock } from '../../lib/time.js';
import type { DeliveriesService } from '../messaging/deliveries/deliveries.service.js';
import { asDeliveryGot } from './notification-status.js';
import { postSignedWebhook, type WebhookOutcome } from './webhook-client.js';
import * as contactPointsRepo from './storage/contact-points.repository.js';
import * as notificationsRepo from './storage/notifications.repository.js';

/**
 * How webhook notifications are tried (docs/bot-developers/alerts.md, "Contact points"): each try has
 * `timeoutMs`; a network error, a timeout, 408, 429 or 5xx is tried again after `firstRetryMs`, doubling up
 * to `maxRetryMs`, at most `maxAttempts` tries in all; any other answer but 2xx fails at once. Redirects are
 * not followed.
 */
export interface WebhookSettings {
  timeoutMs: number;
  firstRetryMs: number;
  maxRetryMs: number;
  maxAttempts: number;
}

export const WEBHOOK_DEFAULTS: WebhookSettings = {
  timeoutMs: 10_000,
  firstRetryMs: 30_000,
  maxRetryMs: 10 * 60_000,
  maxAttempts: 6,
};

/** Notifications tried in one round; the rest wait for the next. */
const DUE_PER_ROUND = 100;

/** What a notification tells, before it is sent (the webhook body without its id and send time). */
export type NotificationContent = Omit<AlertWebhookBody, 'notification_id' | 'sent_at'> & {
  /** The unit of value and threshold, for the Telegram template. */
  unit: string | null;
};

interface Logger {
  warn(details: object, message: string): void;
}

/** The outcome of one try. */
type TryOutcome =
  | Exclude<WebhookOutcome, { status: 'sent' }>
  | { status: 'sent'; responseStatus: number | null; deliveryId?: number };

/**
 * Tells contact points (docs/bot-developers/alerts.md, "Contact points"): a webhook gets the signed JSON
 * body, tried again with backoff; a Telegram chat gets the `alert` template (or the contact point's own)
 * through the delivery pipeline, whose idempotency key is the notification's, so a notification tried twice
 * is sent once. Each try first claims the notification in the database, so two instances never try one at
 * once.
 */
export class AlertNotifier {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    private readonly deliveries: DeliveriesService,
    /** LUMI_PUBLIC_URL: where the console is, for the links in alerts. */
    private readonly publicUrl: string,
    private readonly log: Logger,
    private readonly settings: WebhookSettings = WEBHOOK_DEFAULTS,
  ) {}

  /** The rule in the console. */
  ruleUrl(ruleId: number | null): string {
    const base = this.publicUrl.replace(/\/+$/, '');
    return ruleId === null ? `${base}/admin/alerts` : `${base}/admin/alerts?rule=${ruleId}`;
  }

  /** Tries every due notification once; returns how many it tried. */
  async sendDue(): Promise<number> {
    const due = await notificationsRepo.dueNotifications(this.db, isoTime(this.now()), DUE_PER_ROUND);
    if (due.length === 0) return 0;
    const points = new Map(
      (
        await contactPointsRepo.contactPointsByIds(this.db, [...new Set(due.map((n) => n.contact_point_id))])
      ).map((p) => [p.id, p]),
    );
    let tried = 0;
    for (const notification of due) {
      const point = points.get(notification.contact_point_id);
      if (point && (await this.attempt(notification, point))) tried += 1;
    }
    return tried;
  }

  /** "Send test notification": a webhook is tried once, at once, and never again; Telegram is queued. */
  async test(point: ContactPoint): Promise<AlertNotification> {
    const now = this.now();
    const content: NotificationContent = {
      version: 1,
      kind: 'test',
      rule: null,
      state: 'ok',
      previous_state: null,
      value: null,
      threshold: null,
      summary: `A test notification from Lumi to the contact point '${point.name}'`,
      started_at: null,
      url: this.ruleUrl(null),
      unit: null,
    };
    // Never due: no retry round takes it, it is tried here once.
    const id = await notificationsRepo.insertNotification(this.db, {
      ...this.newRow(point.id, null, content, now),
      next_attempt_at: null,
    });
    const row = await notificationsRepo.findNotificationRow(this.db, id);
    const stored = (await contactPointsRepo.contactPointsByIds(this.db, [point.id]))[0];
    if (!row || !stored) throw new NotFoundError(`There is no contact point ${point.id}`);
    await this.attempt(row, stored, { once: true });
    const notification = await notificationsRepo.findNotification(this.db, id);
    if (!notification) throw new NotFoundError(`There is no notification ${id}`);
    return (await this.settled([notification]))[0]!;
  }

  /** Notifications as far as they got: a Telegram one's status is its delivery's (notification-status.ts). */
  async settled(notifications: AlertNotification[]): Promise<AlertNotification[]> {
    const ids = notifications.flatMap((n) => (n.delivery_id === null ? [] : [n.delivery_id]));
    const states = await this.deliveries.states(ids);
    return notifications.map((n) =>
      asDeliveryGot(n, n.delivery_id === null ? undefined : states.get(n.delivery_id)),
    );
  }

  /** A new notification's row: queued, due now. */
  newRow(
    contactPointId: number,
    rule: { id: number; name: string } | null,
    content: NotificationContent,
    now: number,
  ): notificationsRepo.NewNotification {
    return {
      contact_point_id: contactPointId,
      rule_id: rule?.id ?? null,
      rule_name: rule?.name ?? null,
      kind: content.kind,
      status: 'queued',
      next_attempt_at: isoTime(now),
      body: JSON.stringify(content),
      created_at: isoTime(now),
    };
  }

  /**
   * One try of a notification, if this instance claims it (false when another had it); a test
   * notification, never due, is this request's alone and is tried once.
   */
  private async attempt(
    row: AlertNotificationRow,
    point: AlertContactPointRow,
    options: { once?: boolean } = {},
  ): Promise<boolean> {
    const now = this.now();
    const leaseUntil = isoAfter(this.settings.timeoutMs + 5_000, now);
    if (!options.once && !(await notificationsRepo.claimNotification(this.db, row, isoTime(now), leaseUntil)))
      return false;
    const attempts = row.attempts + 1;
    const content = JSON.parse(row.body) as NotificationContent;
    let outcome: TryOutcome;
    try {
      outcome =
        point.type === 'webhook'
          ? await this.postWebhook(row.id, point, content)
          : await this.queueTelegram(row, point, content);
    } catch (error) {
      outcome = {
        status: 'retry',
        responseStatus: null,
        error: error instanceof Error ? error.message : String(error),
      };
      this.log.warn({ err: error, notification: row.id }, 'alert notification: try failed');
    }
    const at = isoTime(this.now());
    if (outcome.status === 'sent') {
      await notificationsRepo.updateNotification(this.db, row.id, {
        attempts,
        status: outcome.deliveryId === undefined ? 'sent' : 'queued',
        delivery_id: outcome.deliveryId ?? null,
        response_status: outcome.responseStatus,
        error: null,
        next_attempt_at: null,
        sent_at: outcome.deliveryId === undefined ? at : null,
      });
    } else if (outcome.status === 'failed' || options.once || attempts >= this.settings.maxAttempts) {
      await notificationsRepo.updateNotification(this.db, row.id, {
        attempts,
        status: 'failed',
        response_status: outcome.responseStatus,
        error: outcome.error,
        next_attempt_at: null,
      });
    } else {
      const delay = Math.min(this.settings.firstRetryMs * 2 ** (attempts - 1), this.settings.maxRetryMs);
      await notificationsRepo.updateNotification(this.db, row.id, {
        response_status: outcome.responseStatus,
        error: outcome.error,
        next_attempt_at: isoAfter(delay, this.now()),
      });
    }
    return true;
  }

  /** The body a webhook receives (docs/bot-developers/alerts.md, "Webhooks"), signed and posted once. */
  private postWebhook(
    id: number,
    point: AlertContactPointRow,
    content: NotificationContent,
  ): Promise<TryOutcome> {
    const now = this.now();
    const { unit: _unit, ...fields } = content;
    const body = JSON.stringify({
      ...fields,
      notification_id: id,
      sent_at: isoTime(now),
    } satisfies AlertWebhookBody);
    return postSignedWebhook({
      url: point.url ?? '',
      secret: point.secret ?? '',
      body,
      event: content.kind,
      notificationId: id,
      nowMs: now,
      timeoutMs: this.settings.timeoutMs,
    });
  }

  /**
   * Queues the Telegram delivery; a request the delivery pipeline refuses (a missing template, channel or
   * topic, a message Telegram would not take) fails the notification with its reason.
   */
  private async queueTelegram(
    row: AlertNotificationRow,
    point: AlertContactPointRow,
    content: NotificationContent,
  ): Promise<TryOutcome> {
    const requester = {
      source: 'alert' as const,
      key: content.rule === null ? `alert-test:${point.id}` : `alert:${content.rule.id}`,
      name: content.rule?.name ?? point.name,
      actor: null,
    };
    try {
      const { delivery } = await this.deliveries.create(requester, {
        ...(point.template_id === null
          ? { template_name: DEFAULT_ALERT_TEMPLATE_NAME }
          : { template_id: point.template_id }),
        channel_id: point.channel_id,
        topic_id: point.topic_id,
        data: telegramData(content),
        idempotency_key: `alert-notification:${row.id}`,
      });
      return { status: 'sent', responseStatus: null, deliveryId: delivery.id };
    } catch (error) {
      // A busy renderer or database is tried again; a refusal of the message itself fails it.
      if (!isRefusal(error)) throw error;
      return { status: 'failed', responseStatus: null, error: error.message };
    }
  }
}

/** The alert variables of the catalogue (variables.seed.ts, ALERT_VARIABLES). */
export function telegramData(content: NotificationContent): Record<string, unknown> {
  return {
    alert_rule_name: content.rule?.name ?? 'Test notification',
    alert_severity: content.rule?.severity ?? 'warning',
    alert_state: content.state,
    alert_kind: content.kind,
    alert_value: content.value,
    alert_threshold: content.threshold,
    alert_unit: content.unit,
    alert_summary: content.summary,
    alert_started_at: content.started_at,
    alert_url: content.url,
  };
}
