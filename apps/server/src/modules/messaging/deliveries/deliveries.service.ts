import {
  DELIVERY_LIMITS,
  DELIVERY_STATUSES,
  deliveryRequestSchema,
  onlyTooLong,
  type Channel,
  type Delivery,
  type DeliveryBatchResponse,
  type DeliveryDetail,
  type DeliveryListResponse,
  type DeliverySource,
  type DeliveryStatus,
  type DeliverySummary,
  type Template,
} from '@lumi/contract';
import type { FormattedText } from '@lumi/telegram-markup';
import type { Kysely, Transaction } from 'kysely';
import pLimit from 'p-limit';
import type { z } from 'zod';
import type { Database, Executor } from '../../../db/database.js';
import { lockForTransaction } from '../../../db/locks.js';
import {
  ConflictError,
  isRefusal,
  NotFoundError,
  RefusedDeliveryError,
  ValidationError,
} from '../../../lib/errors.js';
import { Turns } from '../../../lib/turns.js';
import { isoAfter, isoTime, type Clock } from '../../../lib/time.js';
import type { Actor, AuditService } from '../../audit/audit.service.js';
import type { ChannelsService } from '../channels/channels.service.js';
import { messageParts } from '../rendering/message-parts.js';
import type { RenderingService } from '../rendering/rendering.service.js';
import type { TemplatesService } from '../templates/templates.service.js';
import * as repo from './deliveries.repository.js';

/** Who asks for a delivery: its idempotency keys are its own. */
export interface Requester {
  source: DeliverySource;
  /** 'user:3', 'key:5', 'schedule:7'. */
  key: string;
  /** The user's or key's name, as the log shows it. */
  name: string | null;
  /** The user who asked (audited); null for API keys and schedules. */
  actor: Actor | null;
}

type Request = z.output<typeof deliveryRequestSchema>;

/** What a schedule's run is sent as: its template, and another channel or topic when it names them. */
export interface ScheduleRef {
  id: number;
  name: string;
  template_id: number;
  channel_id: number | null;
  topic_id: number | null;
}

/** A request checked and rendered, ready to be stored. */
/** What a refusal for length says a template can do about it (docs/bot-developers/deliveries.md). */
const SPLIT_HINT = 'Turn on “Split long messages” in the template to send it as several messages.';

interface Prepared {
  request: Request;
  template: Template;
  channel: Channel;
  topic: { id: number; topic_name: string; message_thread_id: number } | null;
  text: string;
  /** A text too long for one message, from a template that splits: the messages it goes out as. */
  parts: FormattedText[] | null;
  sendAt: string;
}

/**
 * A request the pipeline turned down once its template was known (a disabled template, channel or topic,
 * a template that does not render, a text Telegram would refuse, a render limit): it is kept as a delivery
 * in state `refused` before the caller gets the 422, so no refused send disappears in silence.
 */
class Refusal extends Error {
  constructor(
    readonly reason: ValidationError,
    readonly target: Omit<Prepared, 'text' | 'sendAt'> & { text: string },
  ) {
    super(reason.message);
  }
}

const DAY_MS = 86_400_000;
/** Deliveries removed by retention in one transaction. */
const PRUNE_CHUNK = 1_000;
/** Renderings of one batch in flight at once. */
const BATCH_RENDER_CONCURRENCY = 4;

/** The 422 of a request that was refused, from the delivery that keeps it. */
function refusedError(delivery: Delivery): RefusedDeliveryError {
  const detail = delivery.error ?? 'The delivery was refused';
  return new RefusedDeliveryError([{ path: 'template_id', message: detail }], detail, delivery.id);
}

/** The first error of a request that failed its schema, as a sentence with the field named. */
function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The delivery is not valid';
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/**
 * Deliveries (docs/bot-developers/deliveries.md, "Sending messages (deliveries)"): accepts a request to send
 * a template with data, renders it and checks it as Telegram would at once, and stores the text and every
 * send option, so the sender posts exactly what was accepted. Cancel and retry are the operator's; both are
 * audited, as is every delivery a user asks for (a bot's are in the delivery log, which names its key).
 */
export class DeliveriesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: Clock,
    private readonly templates: TemplatesService,
    private readonly channels: ChannelsService,
    private readonly rendering: RenderingService,
    /** Tells this instance's sender that something is due now. */
    private readonly queued: () => void,
  ) {}

  /** One delivery: 202 with the new one, or the first one of a live idempotency key (`created: false`). */
  async create(requester: Requester, request: Request): Promise<{ delivery: Delivery; created: boolean }> {
    const existing = await this.liveIdempotent(this.db, requester, request.idempotency_key);
    if (existing) return { delivery: existing, created: false };
    const prepared = await this.refusalsKept(requester, () => this.prepare(request));
    const result = await this.db.transaction().execute((trx) => this.store(trx, requester, prepared));
    if (result.created) this.queued();
    return result;
  }

  /**
   * One run of a schedule (docs/bot-developers/deliveries.md, "Schedules"): a delivery unique per schedule
   * and run time, so a pass tried again, or a second instance, finds the run's delivery instead of making
   * another (`created: false`). A run that cannot be queued throws the 422 a request would get.
   */
  async enqueueScheduled(
    schedule: ScheduleRef,
    runAt: string,
    data: Record<string, unknown>,
  ): Promise<{ delivery: Delivery; created: boolean }> {
    const existing = await repo.findScheduleRun(this.db, schedule.id, runAt);
    if (existing?.status === 'refused') throw refusedError(repo.toDelivery(existing));
    if (existing) return { delivery: repo.toDelivery(existing), created: false };
    const requester: Requester = {
      source: 'schedule',
      key: `schedule:${schedule.id}`,
      name: schedule.name,
      actor: null,
    };
    const run = { schedule_id: schedule.id, schedule_run_at: runAt };
    const prepared = await this.refusalsKept(
      requester,
      () =>
        this.prepare({
          template_id: schedule.template_id,
          channel_id: schedule.channel_id,
          topic_id: schedule.topic_id,
          data,
        }),
      run,
    );
    const result = await this.db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, [`schedule-run:${schedule.id}:${runAt}`]);
      const stored = await repo.findScheduleRun(trx, schedule.id, runAt);
      if (stored) return { delivery: repo.toDelivery(stored), created: false };
      return this.store(trx, requester, prepared, run);
    });
    if (result.created) this.queued();
    return result;
  }

  /** Up to 500 requests, each judged on its own; the accepted ones are stored in one transaction. */
  async createBatch(requester: Requester, entries: unknown[]): Promise<DeliveryBatchResponse> {
    const rejected: DeliveryBatchResponse['rejected'] = [];
    const refusals: { index: number; refusal: Refusal }[] = [];
    const ready: { index: number; prepared: Prepared }[] = [];
    const replays: DeliveryBatchResponse['accepted'] = [];
    // A few at a time: the render pool's queue is bounded, and one batch must not fill it alone.
    const limit = pLimit(BATCH_RENDER_CONCURRENCY);
    const lookups = this.lookups();
    await Promise.all(
      entries.map((entry, index) =>
        limit(async () => {
          const parsed = deliveryRequestSchema.safeParse(entry);
          if (!parsed.success) {
            rejected.push({ index, detail: describe(parsed.error) });
            return;
          }
          try {
            const existing = await this.liveIdempotent(this.db, requester, parsed.data.idempotency_key);
            if (existing) replays.push({ index, delivery: existing });
            else ready.push({ index, prepared: await this.prepare(parsed.data, lookups) });
          } catch (error) {
            if (error instanceof Refusal) return void refusals.push({ index, refusal: error });
            // A busy renderer (429, 503) answers for the whole batch, which stored nothing yet.
            if (!isRefusal(error)) throw error;
            rejected.push({ index, detail: error.message });
          }
        }),
      ),
    );
    ready.sort((a, b) => a.index - b.index);
    const stored = await this.db.transaction().execute(async (trx) => {
      const accepted: DeliveryBatchResponse['accepted'] = [];
      const turns = new Turns();
      // Those with an idempotency key one by one (each may have been made meanwhile), the others at once.
      const plain = ready.filter(({ prepared }) => !prepared.request.idempotency_key);
      for (const { index, prepared } of ready) {
        if (!prepared.request.idempotency_key) continue;
        await turns.next();
        accepted.push({ index, delivery: (await this.store(trx, requester, prepared)).delivery });
      }
      const rows = await repo.insertDeliveries(
        trx,
        plain.map(({ prepared }) => this.rowOf(requester, prepared, null)),
      );
      for (const [i, row] of rows.entries()) {
        await turns.next();
        const delivery = repo.toDelivery(row);
        await this.recordRequested(trx, requester, delivery);
        accepted.push({ index: plain[i]!.index, delivery });
      }
      refusals.sort((a, b) => a.index - b.index);
      const kept = await repo.insertDeliveries(
        trx,
        refusals.map(({ refusal }) => this.refusedRowOf(requester, refusal, null)),
      );
      for (const [i, row] of kept.entries()) {
        await turns.next();
        const { index, refusal } = refusals[i]!;
        await this.recordRequested(trx, requester, repo.toDelivery(row));
        rejected.push({ index, detail: refusal.reason.message, delivery_id: row.id });
      }
      return accepted;
    });
    if (stored.length > 0) this.queued();
    const accepted = [...stored, ...replays].sort((a, b) => a.index - b.index);
    return { accepted, rejected: rejected.sort((a, b) => a.index - b.index) };
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

  /** The delivery a live idempotency key of this caller already made, if any. */
  private async liveIdempotent(db: Executor, requester: Requester, key: string | undefined) {
    if (!key) return null;
    const row = await repo.findByIdempotencyKey(db, requester.key, key);
    if (!row || (row.idempotency_expires_at ?? '') <= isoTime(this.now())) return null;
    return repo.toDelivery(row);
  }

  /**
   * The template, channel and topic look-ups of one request or batch, each made once: a broadcast names
   * the same template (and often the same channel) hundreds of times.
   */
  private lookups() {
    const cache = new Map<string, Promise<unknown>>();
    const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
      let hit = cache.get(key) as Promise<T> | undefined;
      if (!hit) {
        hit = load();
        cache.set(key, hit);
      }
      return hit;
    };
    return {
      template: (ref: { id?: number; name?: string }) =>
        once(`template:${ref.id ?? ''}:${ref.name ?? ''}`, () => this.templates.requireForField(ref)),
      channel: (id: number, field: string | null) =>
        once(`channel:${id}:${field ?? ''}`, () =>
          field ? this.channels.requireForField(this.db, id, field) : this.channels.get(id),
        ),
      topic: (channel: Channel, topicId: number) =>
        once(`topic:${channel.id}:${topicId}`, () =>
          this.channels.requireTopicOfChannel(this.db, channel, topicId, 'topic_id'),
        ),
    };
  }

  /**
   * Checks the request against the template, channel and topic, and renders it as it will be sent. A
   * template, channel or topic that does not exist, or a send_at too far ahead, is the caller's mistake (a
   * plain 422); what the pipeline refuses once the target is known throws a Refusal, to be kept.
   */
  private async prepare(request: Request, lookups = this.lookups()): Promise<Prepared> {
    const template = await lookups.template({ id: request.template_id, name: request.template_name });
    const channel = request.channel_id
      ? await lookups.channel(request.channel_id, 'channel_id')
      : await lookups.channel(template.channel_id, null);
    const topicId = request.topic_id ?? (channel.id === template.channel_id ? template.topic_id : null);
    const found = topicId ? await lookups.topic(channel, topicId) : null;
    const topic = found && {
      id: found.id,
      topic_name: found.topic_name,
      message_thread_id: found.message_thread_id,
    };
    const refuse = (reason: ValidationError, text = '') =>
      new Refusal(reason, { request, template, channel, topic, text, parts: null });
    if (!template.enabled) {
      throw refuse(
        ValidationError.field('template_id', `The template '${template.template_name}' is disabled`),
      );
    }
    if (!channel.enabled) {
      throw refuse(
        ValidationError.field(
          request.channel_id ? 'channel_id' : 'template_id',
          `The channel '${channel.channel_name}' is disabled`,
        ),
      );
    }
    if (found && !found.enabled) {
      throw refuse(ValidationError.field('topic_id', `The topic '${found.topic_name}' is disabled`));
    }
    const now = this.now();
    let sendAt = isoTime(now);
    if (request.send_at) {
      const at = Date.parse(request.send_at);
      if (at > now + DELIVERY_LIMITS.sendAtMaxDays * DAY_MS) {
        throw ValidationError.field(
          'send_at',
          `send_at may be at most ${DELIVERY_LIMITS.sendAtMaxDays} days ahead`,
        );
      }
      if (at > now) sendAt = isoTime(at);
    }
    let rendered;
    try {
      rendered = await this.rendering.render(template.template_content, template.parse_mode, request.data);
    } catch (error) {
      // A render limit is the template's or the data's doing; a busy renderer (503, 429) is not kept.
      if (error instanceof ValidationError) throw refuse(error);
      throw error;
    }
    let parts: FormattedText[] | null = null;
    if (!rendered.success) {
      const tooLong = onlyTooLong(rendered);
      if (!tooLong || !template.split_long_messages) {
        const hint = tooLong ? `. ${SPLIT_HINT}` : '';
        throw refuse(
          ValidationError.field('data', `Not queued: ${rendered.error}${hint}`),
          rendered.rendered,
        );
      }
      parts = messageParts(template.parse_mode, rendered.rendered);
    }
    return { request, template, channel, topic, text: rendered.rendered, parts, sendAt };
  }

  /**
   * Runs `prepare`; a Refusal it throws is stored as a `refused` delivery, and the caller gets the 422 with
   * that delivery's id.
   */
  private async refusalsKept(
    requester: Requester,
    prepare: () => Promise<Prepared>,
    run: { schedule_id: number; schedule_run_at: string } | null = null,
  ): Promise<Prepared> {
    try {
      return await prepare();
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      const delivery = await this.db.transaction().execute(async (trx) => {
        if (run) {
          await lockForTransaction(trx, [`schedule-run:${run.schedule_id}:${run.schedule_run_at}`]);
          const stored = await repo.findScheduleRun(trx, run.schedule_id, run.schedule_run_at);
          if (stored) return repo.toDelivery(stored);
        }
        const kept = repo.toDelivery(
          await repo.insertDelivery(trx, this.refusedRowOf(requester, error, run)),
        );
        await this.recordRequested(trx, requester, kept);
        return kept;
      });
      throw delivery.status === 'refused'
        ? new RefusedDeliveryError(error.reason.errors ?? [], error.reason.message, delivery.id)
        : error.reason;
    }
  }

  /** The row of a refused request: never sent, holding the reason and whatever text was rendered. */
  private refusedRowOf(
    requester: Requester,
    refusal: Refusal,
    run: { schedule_id: number; schedule_run_at: string } | null,
  ): repo.NewDelivery {
    const now = isoTime(this.now());
    return {
      ...this.rowOf(requester, { ...refusal.target, sendAt: now }, run),
      status: 'refused',
      idempotency_key: null,
      idempotency_expires_at: null,
      next_attempt_at: null,
      error: refusal.reason.message,
    };
  }

  /** Stores a prepared delivery, unless the caller's idempotency key made one meanwhile. */
  private async store(
    trx: Transaction<Database>,
    requester: Requester,
    prepared: Prepared,
    run: { schedule_id: number; schedule_run_at: string } | null = null,
  ): Promise<{ delivery: Delivery; created: boolean }> {
    const key = prepared.request.idempotency_key ?? null;
    const now = this.now();
    if (key) {
      await lockForTransaction(trx, [`delivery-key:${requester.key}:${key}`]);
      const existing = await repo.findByIdempotencyKey(trx, requester.key, key);
      if (existing && (existing.idempotency_expires_at ?? '') > isoTime(now)) {
        return { delivery: repo.toDelivery(existing), created: false };
      }
      if (existing) await repo.releaseIdempotencyKey(trx, existing.id);
    }
    const delivery = repo.toDelivery(await repo.insertDelivery(trx, this.rowOf(requester, prepared, run)));
    await this.recordRequested(trx, requester, delivery);
    return { delivery, created: true };
  }

  /** The row of a prepared delivery, as it is stored. */
  private rowOf(
    requester: Requester,
    prepared: Prepared,
    run: { schedule_id: number; schedule_run_at: string } | null,
  ): repo.NewDelivery {
    const { request, template, channel, topic } = prepared;
    const key = request.idempotency_key ?? null;
    const now = this.now();
    return {
      status: 'queued',
      source: requester.source,
      requester_key: requester.key,
      requested_by: requester.name,
      template_id: template.id,
      template_name: template.template_name,
      template_version: template.version,
      schedule_id: run?.schedule_id ?? null,
      schedule_run_at: run?.schedule_run_at ?? null,
      channel_id: channel.id,
      channel_name: channel.channel_name,
      chat_id: channel.chat_id,
      topic_id: topic?.id ?? null,
      topic_name: topic?.topic_name ?? null,
      message_thread_id: topic?.message_thread_id ?? null,
      text: prepared.text,
      parts: prepared.parts && JSON.stringify(prepared.parts),
      parts_sent: prepared.parts && 0,
      parse_mode: template.parse_mode,
      disable_web_preview: template.disable_web_preview ? 1 : 0,
      disable_notification: template.disable_notification ? 1 : 0,
      pin: template.allow_pinning && template.pin_by_default ? 1 : 0,
      data: JSON.stringify(request.data),
      idempotency_key: key,
      idempotency_expires_at: key ? isoAfter(DELIVERY_LIMITS.idempotencyHours * 3600_000, now) : null,
      send_at: prepared.sendAt,
      next_attempt_at: prepared.sendAt,
      created_at: isoTime(now),
      updated_at: isoTime(now),
    };
  }

  /**
   * A delivery a user asked for is audited, queued or refused; a bot's or a schedule's is in the delivery
   * log, which names its key or schedule.
   */
  private async recordRequested(trx: Transaction<Database>, requester: Requester, delivery: Delivery) {
    if (!requester.actor) return;
    const refused = delivery.status === 'refused';
    await this.audit.record(trx, requester.actor, {
      action: refused ? 'delivery.refused' : 'delivery.queued',
      resourceType: 'delivery',
      resourceId: delivery.id,
      resourceName: `${delivery.template_name} → ${delivery.channel_name}`,
      newValue: {
        template_id: delivery.template_id,
        template_version: delivery.template_version,
        channel_id: delivery.channel_id,
        topic_id: delivery.topic_id,
        ...(refused ? { error: delivery.error } : { send_at: delivery.send_at }),
      },
    });
  }
}
