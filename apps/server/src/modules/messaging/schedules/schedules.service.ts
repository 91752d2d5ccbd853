import {
  describeRecurrence,
  recurrenceCron,
  SCHEDULE_FIELDS,
  SCHEDULE_LIMITS,
  type DeliveryListResponse,
  type Schedule,
  type ScheduleDataSource,
  type SchedulePreview,
  type ScheduleSnapshot,
  type ScheduleUpdate,
  type ScheduleValues,
  type Recurrence,
  type Template,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../../db/database.js';
import { VersionedEntity } from '../../../db/versioned-entity.js';
import {
  isRefusal,
  ConflictError,
  NotFoundError,
  RefusedDeliveryError,
  ValidationError,
} from '../../../lib/errors.js';
import { isoTime, type Clock } from '../../../lib/time.js';
import type { Actor, AuditService } from '../../audit/audit.service.js';
import type { ChannelsService } from '../channels/channels.service.js';
import type { DeliveriesService } from '../deliveries/deliveries.service.js';
import type { TemplatesService } from '../templates/templates.service.js';
import { cronProblem, nextRunAfter, nextRuns, runTimes } from './schedule-timing.js';
import * as repo from './schedules.repository.js';

/** A run's data: the fixed object, or what the schedule's source says at run time (schedule-data.ts). */
export type ResolveData = (
  source: ScheduleDataSource,
  fixed: Record<string, unknown>,
) => Promise<Record<string, unknown>>;

interface Logger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface RunSettings {
  resolve: ResolveData;
  /** A run missed by more than this (LUMI_SCHEDULE_CATCHUP_MINUTES) is skipped rather than sent late. */
  catchupMs: number;
  log: Logger;
}

type DeliveryFilter = Parameters<DeliveriesService['list']>[0];

/** Schedules looked at in one pass, and runs of one schedule sent in one pass; the rest wait for the next. */
const DUE_PER_PASS = 100;
const RUNS_PER_SCHEDULE_PASS = 50;
/** Skipped runs counted for the log; beyond it the log says "at least". */
const SKIPPED_COUNT_MAX = 1000;

function publicView(schedule: repo.ScheduleRecord): Schedule {
  const { handled_until: _handled, ...rest } = schedule;
  return rest;
}

/**
 * Schedules (docs/bot-developers/deliveries.md, "Schedules"): a template sent on a recurrence, kept with
 * every version like templates (a save names its version, 409 when stale; every change audited). Each run
 * time becomes one delivery through DeliveriesService, unique per schedule and run time, so a retried pass or
 * a second instance never makes two; runDue is the scheduler job's pass (src/jobs.ts runs it under the job
 * lease).
 */
export class SchedulesService {
  private readonly versioned: VersionedEntity<repo.ScheduleRecord, ScheduleSnapshot>;

  constructor(
    private readonly db: Kysely<Database>,
    audit: AuditService,
    private readonly now: Clock,
    private readonly templates: TemplatesService,
    private readonly channels: ChannelsService,
    private readonly deliveries: DeliveriesService,
  ) {
    this.versioned = new VersionedEntity(audit, now, {
      store: repo.scheduleStore,
      fields: SCHEDULE_FIELDS,
      keepUnchangedSaves: false,
      notFound: (id) => new NotFoundError(`There is no schedule ${id}`),
      stale: (current) =>
        new ConflictError(
          `${current.updated_by ?? 'Someone'} saved '${current.name}' since you loaded it (now version ${current.version}). ` +
            'Reload to see their change, then make yours again.',
          publicView(current),
        ),
      audit: {
        resourceType: 'schedule',
        action: 'schedule',
        name: (schedule) => schedule.name,
        view: (schedule, action) => {
          const snapshot = this.versioned.snapshotOf(schedule);
          return action === 'created' ? snapshot : { version: schedule.version, ...snapshot };
        },
      },
    });
  }

  async list(): Promise<Schedule[]> {
    return (await repo.listSchedules(this.db)).map(publicView);
  }

  async get(id: number): Promise<Schedule> {
    return publicView(await this.versioned.get(this.db, id));
  }

  async create(actor: Actor, values: ScheduleValues): Promise<Schedule> {
    this.checkRecurrence(values.recurrence, values.timezone);
    const template = await this.templates.requireForField({ id: values.template_id });
    return this.db.transaction().execute(async (trx) => {
      await this.checkTarget(trx, values, template);
      const created = await this.versioned.create(trx, actor, values);
      return publicView(await this.retime(trx, created, this.now()));
    });
  }

  /** Fields left out keep their values; a new recurrence, time zone or resume counts runs from now on. */
  async update(actor: Actor, id: number, update: ScheduleUpdate): Promise<Schedule> {
    // TemplatesService reads outside any transaction, so the template is read before it starts.
    const current = await this.versioned.get(this.db, id);
    const template = await this.templates.requireForField({ id: update.template_id ?? current.template_id });
    return this.db.transaction().execute(async (trx) => {
      const before = await this.versioned.get(trx, id);
      this.versioned.checkVersion(before, update.version);
      const { version: _version, ...fields } = update;
      const defined = Object.fromEntries(
        Object.entries(fields).filter(([, v]) => v !== undefined),
      ) as Partial<ScheduleSnapshot>;
      const snapshot: ScheduleSnapshot = { ...this.versioned.snapshotOf(before), ...defined };
      this.checkRecurrence(snapshot.recurrence, snapshot.timezone);
      await this.checkTarget(trx, snapshot, template);
      return publicView(await this.save(trx, actor, before, snapshot));
    });
  }

  async remove(actor: Actor, id: number, version: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.versioned.remove(trx, actor, await this.versioned.get(trx, id), version);
    });
  }

  /** Pause and resume are saves of `enabled`; runs due while paused are never sent. */
  async setEnabled(actor: Actor, id: number, enabled: boolean): Promise<Schedule> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.versioned.get(trx, id);
      return publicView(
        await this.save(trx, actor, before, { ...this.versioned.snapshotOf(before), enabled }),
      );
    });
  }

  /** The next run times of a recurrence, for the editor. */
  preview(recurrence: Recurrence, timezone: string, from?: string): SchedulePreview {
    this.checkRecurrence(recurrence, timezone);
    const start = from ? Date.parse(from) : this.now();
    return {
      cron: recurrenceCron(recurrence),
      description: describeRecurrence(recurrence),
      runs: nextRuns(runTimes(recurrence, timezone), start, SCHEDULE_LIMITS.previewRuns),
    };
  }

  /** The schedule's runs: its deliveries, newest first. */
  async runs(id: number, filter: Omit<DeliveryFilter, 'schedule_id'>): Promise<DeliveryListResponse> {
    await this.versioned.get(this.db, id);
    return this.deliveries.list({ ...filter, schedule_id: id });
  }

  /**
   * The scheduler job's pass: every due run of every enabled schedule becomes one delivery. A run older
   * than the catch-up age (missed while no instance ran the job) is skipped, logged and recorded as
   * handled, so it is never considered again. Returns what it did.
   */
  async runDue(settings: RunSettings): Promise<{ queued: number; skipped: number; notQueued: number }> {
    const totals = { queued: 0, skipped: 0, notQueued: 0 };
    const due = await repo.dueSchedules(this.db, isoTime(this.now()), DUE_PER_PASS);
    for (const schedule of due) {
      const done = await this.runSchedule(schedule, settings);
      totals.queued += done.queued;
      totals.skipped += done.skipped;
      totals.notQueued += done.notQueued;
    }
    return totals;
  }

  private async runSchedule(schedule: repo.ScheduleRecord, settings: RunSettings) {
    const done = { queued: 0, skipped: 0, notQueued: 0 };
    const now = this.now();
    const cron = runTimes(schedule.recurrence, schedule.timezone);
    let seen = schedule;
    let runCount = schedule.run_count;
    const advance = async (handled: number, last: repo.ScheduleState) => {
      const next = nextRunAfter(cron, handled, seen, runCount);
      const state = {
        ...last,
        handled_until: isoTime(handled),
        next_run_at: next === null ? null : isoTime(next),
      };
      if (!(await repo.advanceState(this.db, seen, state))) return false;
      seen = { ...seen, handled_until: state.handled_until };
      return true;
    };

    const cutoff = now - settings.catchupMs;
    let handled = Date.parse(schedule.handled_until);
    const first = nextRunAfter(cron, handled, schedule, runCount);
    if (first !== null && first <= cutoff) {
      const skipped = cron
        .nextRuns(SKIPPED_COUNT_MAX, new Date(handled))
        .filter((run) => run.getTime() <= cutoff)
        .filter((run) => schedule.ends_at === null || run.getTime() < Date.parse(schedule.ends_at));
      const lastSkipped = skipped.at(-1)?.getTime() ?? first;
      const count = `${skipped.length}${skipped.length === SKIPPED_COUNT_MAX ? ' or more' : ''}`;
      const detail =
        `${count} run(s) from ${isoTime(first)} to ${isoTime(lastSkipped)} were missed while Lumi was not ` +
        `running and are older than the catch-up age (${Math.round(settings.catchupMs / 60_000)} minutes): skipped`;
      settings.log.warn(
        { schedule: schedule.id, name: schedule.name, skipped: count },
        `schedule: ${detail}`,
      );
      const recorded = await advance(cutoff, {
        last_run_at: isoTime(lastSkipped),
        last_outcome: 'skipped',
        last_delivery_id: null,
        last_detail: detail,
      });
      if (!recorded) return done;
      done.skipped += skipped.length;
      handled = cutoff;
    }

    let data: Record<string, unknown> | undefined;
    for (let i = 0; i < RUNS_PER_SCHEDULE_PASS; i += 1) {
      const run = nextRunAfter(cron, handled, schedule, runCount);
      if (run === null || run > now) break;
      data ??= await settings.resolve(schedule.data_source, schedule.data);
      const runAt = isoTime(run);
      let last: repo.ScheduleState;
      try {
        const { delivery } = await this.deliveries.enqueueScheduled(schedule, runAt, data);
        runCount += 1;
        last = {
          run_count: runCount,
          last_run_at: runAt,
          last_outcome: 'queued',
          last_delivery_id: delivery.id,
          last_detail: null,
        };
        done.queued += 1;
      } catch (error) {
        // A run Telegram would refuse, or whose template or channel is gone or disabled, is not queued;
        // the list shows why. Anything temporary (the database, a renderer busy with load) fails the
        // pass, so the run is tried again on the next one.
        if (!isRefusal(error)) throw error;
        settings.log.warn(
          { schedule: schedule.id, run: runAt, detail: error.message },
          'schedule: run not queued',
        );
        // A refusal is kept as a `refused` delivery, which the run links to.
        const refused = error instanceof RefusedDeliveryError ? error.deliveryId : null;
        last = {
          last_run_at: runAt,
          last_outcome: refused === null ? 'not_queued' : 'refused',
          last_delivery_id: refused,
          last_detail: error.message,
        };
        done.notQueued += 1;
      }
      if (!(await advance(run, last))) break;
      handled = run;
    }
    if (handled === Date.parse(schedule.handled_until)) {
      // Nothing was due after all (an end reached, a run not yet come): the next run time is set again.
      await advance(handled, {});
    }
    return done;
  }

  /**
   * Saves a new version, and restarts the run count from now when what decides the run times changed or
   * the schedule was resumed, so no run from before the change is sent late.
   */
  private async save(trx: Executor, actor: Actor, before: repo.ScheduleRecord, snapshot: ScheduleSnapshot) {
    const after = await this.versioned.save(trx, actor, before, snapshot);
    if (after === before) return before;
    const retimed =
      JSON.stringify(before.recurrence) !== JSON.stringify(after.recurrence) ||
      before.timezone !== after.timezone ||
      (!before.enabled && after.enabled);
    const from = retimed
      ? Math.max(Date.parse(before.handled_until), this.now())
      : Date.parse(before.handled_until);
    return this.retime(trx, after, from);
  }

  /** Sets where runs count from and the next run time, and reads the schedule back. */
  private async retime(trx: Executor, schedule: repo.ScheduleRecord, from: number) {
    const next = schedule.enabled
      ? nextRunAfter(runTimes(schedule.recurrence, schedule.timezone), from, schedule, schedule.run_count)
      : null;
    await repo.setState(trx, schedule.id, {
      handled_until: isoTime(from),
      next_run_at: next === null ? null : isoTime(next),
    });
    return this.versioned.get(trx, schedule.id);
  }

  /** A cron expression croner cannot read is a 422 on recurrence.cron. */
  private checkRecurrence(recurrence: Recurrence, timezone: string) {
    const problem = cronProblem(recurrence, timezone);
    if (problem) {
      const field = recurrence.kind === 'cron' ? 'recurrence.cron' : 'recurrence';
      throw ValidationError.field(field, `The recurrence cannot be read: ${problem}`);
    }
  }

  /** The template exists (read by the caller), and so do the channel and topic, the topic being one of the channel's (422). */
  private async checkTarget(db: Executor, snapshot: ScheduleSnapshot, template: Template) {
    const channel = snapshot.channel_id
      ? await this.channels.requireForField(db, snapshot.channel_id, 'channel_id')
      : await this.channels.requireForField(db, template.channel_id, 'template_id');
    if (snapshot.topic_id !== null) {
      await this.channels.requireTopicOfChannel(db, channel, snapshot.topic_id, 'topic_id');
    }
  }
}
