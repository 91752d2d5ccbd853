import { deliveryRequestSchema, type Delivery, type DeliveryBatchResponse } from '@lumi/contract';
import type { Kysely, Transaction } from 'kysely';
import pLimit from 'p-limit';
import type { z } from 'zod';
import type { Database, Executor } from '../../../db/database.js';
import { lockForTransaction } from '../../../db/locks.js';
import { isRefusal, RefusedDeliveryError } from '../../../lib/errors.js';
import { Turns } from '../../../lib/turns.js';
import { isoTime, type Clock } from '../../../lib/time.js';
import type { AuditService } from '../../audit/audit.service.js';
import * as repo from './deliveries.repository.js';
import {
  Refusal,
  type DeliveryPreparation,
  type DeliveryRequest,
  type Prepared,
  type Requester,
} from './delivery-preparation.js';

/** What a schedule's run is sent as: its template, and another channel or topic when it names them. */
export interface ScheduleRef {
  id: number;
  name: string;
  template_id: number;
  channel_id: number | null;
  topic_id: number | null;
}

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
 * Accepting deliveries (the "Accept" stage of ./README.md): one request, a batch of them or a schedule's run
 * is prepared (delivery-preparation.ts) and stored queued, or kept as refused, in the caller's name; the
 * idempotency keys and the schedule runs make a request asked again find its delivery instead of another.
 */
export class DeliveryIntake {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly audit: AuditService,
    private readonly now: Clock,
    private readonly preparation: DeliveryPreparation,
    /** Tells this instance's sender that something is due now. */
    private readonly queued: () => void,
  ) {}

  /** One delivery: 202 with the new one, or the first one of a live idempotency key (`created: false`). */
  async create(
    requester: Requester,
    request: DeliveryRequest,
  ): Promise<{ delivery: Delivery; created: boolean }> {
    const existing = await this.liveIdempotent(this.db, requester, request.idempotency_key);
    if (existing) return { delivery: existing, created: false };
    const prepared = await this.refusalsKept(requester, () => this.preparation.prepare(request));
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
        this.preparation.prepare({
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
    const lookups = this.preparation.lookups();
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
            else ready.push({ index, prepared: await this.preparation.prepare(parsed.data, lookups) });
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
        plain.map(({ prepared }) => this.preparation.rowOf(requester, prepared, null)),
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
        refusals.map(({ refusal }) => this.preparation.refusedRowOf(requester, refusal, null)),
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

  /** The delivery a live idempotency key of this caller already made, if any. */
  private async liveIdempotent(db: Executor, requester: Requester, key: string | undefined) {
    if (!key) return null;
    const row = await repo.findByIdempotencyKey(db, requester.key, key);
    if (!row || (row.idempotency_expires_at ?? '') <= isoTime(this.now())) return null;
    return repo.toDelivery(row);
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
          await repo.insertDelivery(trx, this.preparation.refusedRowOf(requester, error, run)),
        );
        await this.recordRequested(trx, requester, kept);
        return kept;
      });
      throw delivery.status === 'refused'
        ? new RefusedDeliveryError(error.reason.errors ?? [], error.reason.message, delivery.id)
        : error.reason;
    }
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
    const delivery = repo.toDelivery(
      await repo.insertDelivery(trx, this.preparation.rowOf(requester, prepared, run)),
    );
    await this.recordRequested(trx, requester, delivery);
    return { delivery, created: true };
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
