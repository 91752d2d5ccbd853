import {
  DELIVERY_STATUSES,
  type Delivery,
  type DeliveryBatchResponse,
  type DeliveryDetail,
  type DeliveryListResponse,
  type DeliveryStatus,
  type DeliverySummary,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../../db/database.js';
import { lockForTransaction } from '../../../db/locks.js';
import { ConflictError, NotFoundError } from '../../../lib/errors.js';
import { isoAfter, isoTime, type Clock } from '../../../lib/time.js';
import type { Actor, AuditService } from '../../audit/audit.service.js';
import type { ChannelsService } from '../channels/channels.service.js';
import type { RenderingService } from '../rendering/rendering.service.js';
import type { TemplatesService } from '../templates/templates.service.js';
import * as repo from './deliveries.repository.js';
import { DeliveryIntake, type ScheduleRef } from './delivery-intake.js';
import { DeliveryPreparation, type DeliveryRequest, type Requester } from './delivery-preparation.js';

export type { Requester } from './delivery-preparation.js';
export type { ScheduleRef } from './delivery-intake.js';

const DAY_MS = 86_400_000;
/** Deliveries removed by retention in one transaction. */
const PRUNE_CHUNK = 1_000;

/**
 * Deliveries (docs/bot-developers/deliveries.md, "Sending messages (deliveries)"): accepts a request to send
 * a template with data, renders it and checks it as Telegram would at once, and stores the text and every
 * send option, so the sender posts exactly what was accepted (delivery-intake.ts, delivery-preparation.ts).
 * Cancel and retry are the operator's; both are audited, as is every delivery a user asks for (a bot's are
 * in the delivery log, which names its key).
 */
export class DeliveriesService {
  private readonly intake: DeliveryIntake;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: Clock,
    templates: TemplatesService,
    channels: ChannelsService,
    rendering: RenderingService,
    /** Tells this instance's sender that something is due now. */
    private readonly queued: () => void,
  ) {
    const preparation = new DeliveryPreparation(db, now, templates, channels, rendering);
    this.intake = new DeliveryIntake(db, audit, now, preparation, queued);
  }

  /** One delivery: 202 with the new one, or the first one of a live idempotency key (`created: false`). */
  create(requester: Requester, request: DeliveryRequest): Promise<{ delivery: Delivery; created: boolean }> {
    return this.intake.create(requester, request);
  }

  /** One run of a schedule, unique per schedule and run time (delivery-intake.ts). */
  enqueueScheduled(
    schedule: ScheduleRef,
    runAt: string,
    data: Record<string, unknown>,
  ): Promise<{ delivery: Delivery; created: boolean }> {
    return this.intake.enqueueScheduled(schedule, runAt, data);
  }

  /** Up to 500 requests, each judged on its own; the accepted ones are stored in one transaction. */
  createBatch(requester: Requester, entries: unknown[]): Promise<DeliveryBatchResponse> {
    return this.intake.createBatch(requester, entries);
  }

  /** What the deliveries among `ids` have come to, by id (alert notifications show it). */
  async states(
    ids: number[],
  ): Promise<Map<number, { status: DeliveryStatus; error: string | null; sent_at: string | null }>> {
    const rows = await repo.statesOf(this.db, [...new Set(ids)]);
    return new Map(rows.map(({ id, ...state }) => [id, state]));
  }

  async list(query: repo.DeliveryFilter): Promise<DeliveryListResponse> {
    const rows = await repo.listDeliveries(this.db, query);
    const page = rows.slice(0, query.limit);
    return {
      deliveries: page.map(repo.toDelivery),
      next_cursor: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
    };
  }

  /**
   * One delivery with its data and attempts. A bot's API key reads only the deliveries it queued (another
   * key's or a user's is answered as missing, so their text and data never leak); users read any.
   */
  async get(id: number, reader: Requester | null = null): Promise<DeliveryDetail> {
    const row = await this.load(this.db, id);
    if (reader?.source === 'api_key' && row.requester_key !== reader.key) {
      throw new NotFoundError(`There is no delivery ${id}`);
    }
    const attempts = await repo.attemptsOf(this.db, id);
    return {
      ...repo.toDelivery(row),
      data: JSON.parse(row.data) as Record<string, unknown>,
      attempt_log: attempts.map(repo.toAttempt),
    };
  }

  async summary(): Promise<DeliverySummary> {
    const since = isoAfter(-DAY_MS, this.now());
    const counts = Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, 0])) as Record<
      (typeof DELIVERY_STATUSES)[number],
      number
    >;
    for (const row of await repo.countByStatusSince(this.db, since)) counts[row.status] = Number(row.n);
    return { since, ...counts };
  }

  /**
   * The retention job's part: deliveries older than `retentionDays` (LUMI_DELIVERY_RETENTION_DAYS) go, in
   * chunks of PRUNE_CHUNK rows so no transaction holds the database long; queued and sending ones stay.
   */
  async prune(retentionDays: number): Promise<number> {
    const before = isoAfter(-retentionDays * DAY_MS, this.now());
    let removed = 0;
    for (;;) {
      const gone = await this.db
        .transaction()
        .execute((trx) => repo.deleteSettledBefore(trx, before, PRUNE_CHUNK));
      removed += gone;
      if (gone < PRUNE_CHUNK) return removed;
    }
  }

  /**
   * How many deliveries failed or were refused since `since` (an alert rule's "delivery failures": the
   * alert rules read it through this, never the table).
   */
  failedSince(since: string): Promise<number> {
    return repo.countFailedSince(this.db, since);
  }

  /** A queued delivery is not sent; anything else answers 409 with its status. */
  async cancel(actor: Actor, id: number): Promise<Delivery> {
    return this.change(actor, id, {
      from: ['queued'],
      action: 'delivery.cancelled',
      refusal: (status) => `Only a queued delivery can be cancelled; this one is ${status}`,
      changes: (now) => ({ status: 'cancelled', next_attempt_at: null, updated_at: now }),
    });
  }

  /** A failed or unknown delivery is queued again, to be sent as a new attempt now. */
  async retry(actor: Actor, id: number): Promise<Delivery> {
    const delivery = await this.change(actor, id, {
      from: ['failed', 'unknown'],
      action: 'delivery.retried',
      refusal: (status) => `Only a failed or unknown delivery can be sent again; this one is ${status}`,
      changes: (now) => ({
        status: 'queued',
        next_attempt_at: now,
        lease_owner: null,
        lease_expires_at: null,
        error: null,
        updated_at: now,
      }),
    });
    this.queued();
    return delivery;
  }

  private async change(
    actor: Actor,
    id: number,
    step: {
      from: Delivery['status'][];
      action: string;
      refusal: (status: string) => string;
      changes: (now: string) => Parameters<typeof repo.transition>[3];
    },
  ): Promise<Delivery> {
    return this.db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, [`delivery:${id}`]);
      const before = await this.load(trx, id);
      const now = isoTime(this.now());
      if (!(await repo.transition(trx, id, step.from, step.changes(now)))) {
        throw new ConflictError(step.refusal(before.status), repo.toDelivery(before));
      }
      const after = repo.toDelivery(await this.load(trx, id));
      await this.audit.record(trx, actor, {
        action: step.action,
        resourceType: 'delivery',
        resourceId: id,
        resourceName: `${after.template_name} → ${after.channel_name}`,
        oldValue: { status: before.status },
        newValue: { status: after.status },
      });
      return after;
    });
  }

  private async load(db: Executor, id: number) {
    const row = await repo.findDelivery(db, id);
    if (!row) throw new NotFoundError(`There is no delivery ${id}`);
    return row;
  }
}
