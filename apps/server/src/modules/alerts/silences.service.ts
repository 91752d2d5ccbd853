import {
  ALERT_MESSAGES,
  SILENCE_END_NOW,
  silenceEndHasPassed,
  type Silence,
  type SilenceUpdateValues,
  type SilenceValues,
  type Weekday,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import { AuditedEntity } from '../../db/audited-entity.js';
import type { Database, Executor } from '../../db/database.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { isoTime, type Clock } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import * as rulesRepo from './storage/rules.repository.js';
import * as silencesRepo from './storage/silences.repository.js';
import { silenceStatus, type SilenceWindow } from './silences.js';

/** A stored silence as the engine's silences.ts reads it. */
export function silenceWindow(row: silencesRepo.SilenceRecord): SilenceWindow {
  return {
    kind: row.kind,
    rule_id: row.rule_id,
    severity: row.severity,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    weekdays: row.weekdays === null ? null : (JSON.parse(row.weekdays) as Weekday[]),
    start_time: row.start_time,
    duration_minutes: row.duration_minutes,
    timezone: row.timezone,
    created_at: row.created_at,
  };
}

/** A once silence that has ended by now would mute nothing: 422 on its end. */
function refuseEnded(values: SilenceValues, now: number) {
  if (silenceEndHasPassed(values, now)) throw ValidationError.field('ends_at', ALERT_MESSAGES.endsPassed);
}

/**
 * Silences (docs/bot-developers/alerts.md, "Silences"): mute one rule, every rule of a severity or every
 * rule, once until a time or in a recurring maintenance window. A silenced rule still changes state and
 * is kept in the history; it only does not notify. A once silence whose end has passed is refused, and
 * an active one can be extended or ended now. Every change is audited.
 */
export class SilencesService {
  private readonly silences: AuditedEntity<Silence>;

  constructor(
    private readonly db: Kysely<Database>,
    audit: AuditService,
    private readonly now: Clock,
  ) {
    this.silences = new AuditedEntity(audit, {
      load: (db, id) => this.load(db, id),
      delete: silencesRepo.deleteSilence,
      resourceType: 'alert_silence',
      name: (silence) => silence.comment.slice(0, 100),
    });
  }

  async list(): Promise<Silence[]> {
    const now = this.now();
    return (await silencesRepo.listSilences(this.db)).map((row) => this.toSilence(row, now));
  }

  get(id: number): Promise<Silence> {
    return this.load(this.db, id);
  }

  /** The silences as the evaluation pass and the rule list judge them. */
  async windows(db: Executor = this.db): Promise<SilenceWindow[]> {
    return (await silencesRepo.listSilences(db)).map(silenceWindow);
  }

  async create(actor: Actor, values: SilenceValues): Promise<Silence> {
    const now = this.now();
    refuseEnded(values, now);
    return this.db.transaction().execute((trx) =>
      this.silences.create(trx, actor, async () => {
        await this.checkRule(trx, values.rule_id);
        return silencesRepo.insertSilence(trx, values, { at: isoTime(now), by: actor.username });
      }),
    );
  }

  /**
   * A silence is replaced as a whole (its kind may change); a later end extends it. A once silence's end
   * `now` ends it at the server's time ("End now"), and it stays in the list, expired, showing when.
   */
  async update(actor: Actor, id: number, update: SilenceUpdateValues): Promise<Silence> {
    const now = this.now();
    const at = isoTime(now);
    const endNow = update.kind === 'once' && update.ends_at === SILENCE_END_NOW;
    const values: SilenceValues =
      update.kind === 'once' ? { ...update, ends_at: endNow ? at : update.ends_at } : update;
    if (!endNow) refuseEnded(values, now);
    return this.db.transaction().execute((trx) =>
      this.silences.update(trx, actor, id, async (before) => {
        await this.checkRule(trx, values.rule_id);
        if (endNow) await this.endNow(trx, before, values, now);
        else await silencesRepo.updateSilence(trx, id, values, at);
      }),
    );
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.db.transaction().execute((trx) => this.silences.remove(trx, actor, id));
  }

  private async load(db: Executor, id: number): Promise<Silence> {
    const row = await silencesRepo.findSilence(db, id);
    if (!row) throw new NotFoundError(`There is no silence ${id}`);
    return this.toSilence(row, this.now());
  }

  /** Only an active once silence has an end to bring forward; its start stays before the end. */
  private async endNow(trx: Executor, before: Silence, values: SilenceValues, now: number) {
    if (before.status === 'expired') throw new ConflictError('The silence has already ended');
    if (before.kind !== 'once' || before.status !== 'active') {
      throw new ConflictError('Only an active silence that runs until a time can end now; delete it instead');
    }
    if (values.kind === 'once' && (values.starts_at === null || Date.parse(values.starts_at) >= now)) {
      throw ValidationError.field('ends_at', ALERT_MESSAGES.endsAfterStart);
    }
    // Another request may have ended it since `before` was read.
    if (!(await silencesRepo.updateSilenceIfNotEnded(trx, before.id, values, isoTime(now)))) {
      throw new ConflictError('The silence has already ended');
    }
  }

  private async checkRule(db: Executor, ruleId: number | null) {
    if (ruleId !== null && !(await rulesRepo.findRule(db, ruleId))) {
      throw ValidationError.field('rule_id', `There is no alert rule ${ruleId}`);
    }
  }

  private toSilence(row: silencesRepo.SilenceRecord, now: number): Silence {
    const window = silenceWindow(row);
    const { status, next_change_at } = silenceStatus(window, now);
    return {
      id: row.id,
      kind: row.kind,
      rule_id: row.rule_id,
      rule_name: row.rule_name,
      severity: row.severity,
      comment: row.comment,
      starts_at: row.starts_at,
      ends_at: row.ends_at,
      weekdays: window.weekdays,
      start_time: row.start_time,
      duration_minutes: row.duration_minutes,
      timezone: row.timezone,
      status,
      next_change_at,
      created_at: row.created_at,
      created_by: row.created_by,
    };
  }
}
