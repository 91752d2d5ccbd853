import {
  ALERT_MESSAGES,
  alertRuleSettings,
  nextStep,
  type AlertCondition,
  type AlertEvaluation,
  type AlertRule,
  type AlertRuleUpdate,
  type AlertRuleValues,
  type AlertSummary,
} from '@lumi/contract';
import type { Kysely } from 'kysely';
import { AuditedEntity } from '../../db/audited-entity.js';
import type { Database, Executor } from '../../db/database.js';
import { lockForTransaction } from '../../db/locks.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import { isoTime, type Clock } from '../../lib/time.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import { createAlertData, type AlertSources } from './alert-data.js';
import * as rulesRepo from './storage/rules.repository.js';
import * as silencesRepo from './storage/silences.repository.js';
import * as historyRepo from './storage/history.repository.js';
import { evaluateCondition } from './conditions.js';
import { isSilenced, type SilenceWindow } from './silences.js';
import type { SilencesService } from './silences.service.js';

/** The lock a change of a contact point's use takes, so a rule never links to one being deleted. */
export const contactPointLock = (id: number) => `alert-contact-point:${id}`;

const SEVERITY_ORDER = { critical: 0, warning: 1 } as const;

/**
 * Alert rules (docs/bot-developers/alerts.md): what a rule watches, how it fires and whom it tells; every
 * change is audited. The evaluation pass (alert-evaluator.ts) owns the state; a change takes effect at its
 * next pass. Disabling a rule is the one exception: a disabled rule is not evaluated, so it goes back to `ok`
 * at once (a history entry says so, nobody is notified) rather than showing a state nothing keeps current.
 */
export class AlertRulesService {
  private readonly rules: AuditedEntity<AlertRule>;

  constructor(
    private readonly db: Kysely<Database>,
    audit: AuditService,
    private readonly now: Clock,
    private readonly silences: SilencesService,
    /** What the conditions read (alert-data.ts). */
    private readonly sources: AlertSources,
    /** LUMI_TIMEZONE: the day of "today" conditions. */
    private readonly timezone: string,
  ) {
    this.rules = new AuditedEntity(audit, {
      load: (db, id) => this.load(db, id),
      delete: rulesRepo.deleteRule,
      resourceType: 'alert_rule',
      name: (rule) => rule.name,
    });
  }

  async list(): Promise<AlertRule[]> {
    const silences = await this.silences.windows();
    const now = this.now();
    return (await rulesRepo.listRules(this.db)).map((row) => toRule(row, silences, now));
  }

  get(id: number): Promise<AlertRule> {
    return this.load(this.db, id);
  }

  async create(actor: Actor, values: AlertRuleValues): Promise<AlertRule> {
    return this.db.transaction().execute((trx) =>
      this.rules.create(trx, actor, async () => {
        await this.checkContactPoints(trx, values);
        return rulesRepo.insertRule(trx, values, { at: isoTime(this.now()), by: actor.username });
      }),
    );
  }

  /** Fields left out keep their values. */
  async update(actor: Actor, id: number, update: AlertRuleUpdate): Promise<AlertRule> {
    return this.db.transaction().execute((trx) =>
      this.rules.update(trx, actor, id, async (before) => {
        const defined = Object.fromEntries(
          Object.entries(update).filter(([, v]) => v !== undefined),
        ) as Partial<AlertRuleValues>;
        const values: AlertRuleValues = { ...alertRuleSettings(before), ...defined };
        await this.checkContactPoints(trx, values);
        const at = isoTime(this.now());
        await rulesRepo.updateRule(trx, id, values, { at, by: actor.username });
        if (!values.enabled && before.state !== 'ok') await this.resetDisabled(trx, before, at);
      }),
    );
  }

  /** Its history stays; its silences go. */
  async remove(actor: Actor, id: number): Promise<void> {
    await this.db.transaction().execute((trx) =>
      this.rules.remove(trx, actor, id, async () => {
        // Its silences go with it; the log keeps them with the rule.
        const silences = (await silencesRepo.listSilences(trx)).filter((silence) => silence.rule_id === id);
        return silences.length > 0 ? { silences } : undefined;
      }),
    );
  }

  /** "What would this evaluate to now": the editor's live line. */
  preview(condition: AlertCondition): Promise<AlertEvaluation> {
    const now = this.now();
    return evaluateCondition(condition, createAlertData(this.sources, now, { timezone: this.timezone }));
  }

  /**
   * Firing and pending rules, for the Overview banner: critical first, then the longest firing, each saying
   * whether a silence keeps it from notifying.
   */
  async summary(): Promise<AlertSummary> {
    const rules = (await this.list()).filter((rule) => rule.enabled);
    const firing = rules
      .filter((rule) => rule.state === 'firing')
      .sort(
        (a, b) =>
          SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
          (a.state_since ?? '').localeCompare(b.state_since ?? '') ||
          a.id - b.id,
      );
    return {
      firing: firing.length,
      pending: rules.filter((rule) => rule.state === 'pending').length,
      firing_rules: firing.map((rule) => ({
        id: rule.id,
        name: rule.name,
        severity: rule.severity,
        since: rule.state_since,
        summary: rule.last_evaluation?.summary ?? null,
        silenced: rule.silenced,
      })),
    };
  }

  private async load(db: Executor, id: number): Promise<AlertRule> {
    const row = await rulesRepo.findRule(db, id);
    if (!row) throw new NotFoundError(`There is no alert rule ${id}`);
    return toRule(row, await this.silences.windows(db), this.now());
  }

  /**
   * The contact points exist (422 naming the missing ids), and an enabled rule has at least one. Each is
   * locked for the transaction, so none is deleted between this check and the link.
   */
  private async checkContactPoints(trx: Parameters<typeof lockForTransaction>[0], values: AlertRuleValues) {
    const ids = values.contact_point_ids;
    if (values.enabled && ids.length === 0) {
      throw ValidationError.field('contact_point_ids', ALERT_MESSAGES.contactPointsRequired);
    }
    await lockForTransaction(trx, ids.map(contactPointLock));
    const missing = await rulesRepo.missingContactPoints(trx, ids);
    if (missing.length > 0) {
      const which =
        missing.length === 1
          ? `There is no contact point ${missing[0]}`
          : `There are no contact points ${missing.join(', ')}`;
      throw ValidationError.field('contact_point_ids', which);
    }
  }

  /** A rule disabled while pending or firing goes back to ok, kept in the history, telling nobody. */
  private async resetDisabled(db: Executor, before: AlertRule, at: string) {
    await rulesRepo.setRuntime(db, before.id, { state: 'ok', state_since: at, pending_since: null });
    await historyRepo.insertHistory(db, {
      rule_id: before.id,
      rule_name: before.name,
      severity: before.severity,
      from_state: before.state,
      to_state: 'ok',
      value: null,
      threshold: null,
      summary: 'The rule was disabled',
      silenced: 0,
      at,
    });
  }
}

export function toRule(row: rulesRepo.RuleRecord, silences: SilenceWindow[], now: number): AlertRule {
  const condition = rulesRepo.conditionOf(row);
  return {
    id: row.id,
    name: row.name,
    condition,
    severity: row.severity,
    pending_seconds: row.pending_seconds,
    no_data: row.no_data,
    renotify_minutes: row.renotify_minutes,
    notify_on_resolve: row.notify_on_resolve === 1,
    contact_point_ids: row.contact_point_ids,
    enabled: row.enabled === 1,
    state: row.state,
    state_since: row.state_since,
    last_evaluation: rulesRepo.evaluationOf(row),
    last_evaluated_at: row.last_evaluated_at,
    silenced: row.enabled === 1 && isSilenced({ id: row.id, severity: row.severity }, silences, now),
    next_step: nextStep(condition),
    created_at: row.created_at,
    updated_at: row.updated_at,
    updated_by: row.updated_by,
  };
}
