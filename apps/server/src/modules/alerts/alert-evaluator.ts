import type { AlertEvaluation } from '@lumi/contract';
import type { Kysely } from 'kysely';
import pLimit from 'p-limit';
import type { Database } from '../../db/database.js';
import { isoTime, type Clock } from '../../lib/time.js';
import { createAlertData, type AlertSources } from './alert-data.js';
import type { AlertNotifier, NotificationContent } from './alert-notifier.js';
import * as rulesRepo from './storage/rules.repository.js';
import * as historyRepo from './storage/history.repository.js';
import * as notificationsRepo from './storage/notifications.repository.js';
import { evaluateCondition } from './conditions.js';
import { isSilenced } from './silences.js';
import type { SilencesService } from './silences.service.js';
import { step, type RuleRuntime, type RuleSettings, type Step } from './state-machine.js';

interface Logger {
  warn(details: object, message: string): void;
}

/** Writes of unchanged rules in flight at once (each is one UPDATE). */
const QUIET_WRITES_AT_ONCE = 4;

export interface PassResult {
  evaluated: number;
  transitions: number;
  notifications: number;
  /** Rules whose evaluation threw (logged); the others were evaluated all the same. */
  failed: number;
  /** Notifications tried in this pass (new ones and due retries). */
  tried: number;
}

function runtimeOf(row: rulesRepo.RuleRecord): RuleRuntime {
  return {
    state: row.state,
    state_since: row.state_since,
    pending_since: row.pending_since,
    last_notified_at: row.last_notified_at,
  };
}

function settingsOf(row: rulesRepo.RuleRecord): RuleSettings {
  return {
    condition_type: rulesRepo.conditionOf(row).type,
    pending_seconds: row.pending_seconds,
    no_data: row.no_data,
    renotify_minutes: row.renotify_minutes,
    notify_on_resolve: row.notify_on_resolve === 1,
  };
}

/**
 * One evaluation pass (docs/bot-developers/alerts.md, "States"), run by the `alerts` job on one instance of
 * the cluster at a time: every enabled rule is evaluated from the rollups and latest reports (one AlertData
 * per pass, so rules share their reads), judged against the silences, and stepped through the state machine.
 * A rule's new state, its history entry and its notifications are written in one transaction, and only while
 * the rule is as the pass read it (an edit or an overlapping pass in between wins), so a change is recorded
 * and notified once. The notifications are tried after the rules. Disabled rules are not evaluated (the
 * rules service set them back to ok when they were disabled); a rule whose evaluation throws is logged and
 * the others go on.
 */
export class AlertEvaluator {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: Clock,
    private readonly silences: SilencesService,
    private readonly notifier: AlertNotifier,
    /** What the conditions read (alert-data.ts). */
    private readonly sources: AlertSources,
    /** LUMI_TIMEZONE: the day of "today" conditions. */
    private readonly timezone: string,
    private readonly log: Logger,
  ) {}

  async runPass(): Promise<PassResult> {
    const result: PassResult = { evaluated: 0, transitions: 0, notifications: 0, failed: 0, tried: 0 };
    const now = this.now();
    const rules = await rulesRepo.listRules(this.db, { enabled: true });
    const silences = await this.silences.windows();
    const data = createAlertData(this.sources, now, { timezone: this.timezone });
    // Most evaluations change nothing but the last value: those writes go out a few at a time while the
    // next rules are evaluated; the changes are recorded after them, one rule after another, in order.
    const limit = pLimit(QUIET_WRITES_AT_ONCE);
    const quiet: Promise<void>[] = [];
    const changes: Array<{
      rule: rulesRepo.RuleRecord;
      evaluation: AlertEvaluation;
      next: Step;
      silenced: boolean;
    }> = [];
    const failed = (rule: rulesRepo.RuleRecord, error: unknown) => {
      result.failed += 1;
      this.log.warn({ err: error, rule: rule.id, name: rule.name }, 'alert rule: evaluation failed');
    };
    for (const rule of rules) {
      try {
        const evaluation = await evaluateCondition(rulesRepo.conditionOf(rule), data);
        const silenced = isSilenced({ id: rule.id, severity: rule.severity }, silences, now);
        const next = step(settingsOf(rule), runtimeOf(rule), evaluation, now, silenced);
        if (next.transition || next.notify) {
          changes.push({ rule, evaluation, next, silenced });
          continue;
        }
        const runtime = this.runtimeColumns(evaluation, next, now);
        quiet.push(
          limit(async () => {
            if (await rulesRepo.advanceRuntime(this.db, rule, runtime)) result.evaluated += 1;
          }).catch((error: unknown) => failed(rule, error)),
        );
      } catch (error) {
        failed(rule, error);
      }
    }
    await Promise.all(quiet);
    for (const { rule, evaluation, next, silenced } of changes) {
      try {
        const recorded = await this.record(rule, evaluation, next, silenced, now);
        if (recorded === null) continue;
        result.evaluated += 1;
        if (next.transition) result.transitions += 1;
        result.notifications += recorded;
      } catch (error) {
        failed(rule, error);
      }
    }
    result.tried = await this.notifier.sendDue();
    return result;
  }

  private runtimeColumns(evaluation: AlertEvaluation, next: Step, now: number): rulesRepo.RuleRuntimeColumns {
    return { ...next.next, last_evaluation: JSON.stringify(evaluation), last_evaluated_at: isoTime(now) };
  }

  /** Writes a step that changes the state or notifies; null when the rule changed since it was read. */
  private async record(
    rule: rulesRepo.RuleRecord,
    evaluation: AlertEvaluation,
    next: Step,
    silenced: boolean,
    now: number,
  ): Promise<number | null> {
    const at = isoTime(now);
    return this.db.transaction().execute(async (trx) => {
      if (!(await rulesRepo.advanceRuntime(trx, rule, this.runtimeColumns(evaluation, next, now))))
        return null;
      if (next.transition) {
        await historyRepo.insertHistory(trx, {
          rule_id: rule.id,
          rule_name: rule.name,
          severity: rule.severity,
          from_state: next.transition.from,
          to_state: next.transition.to,
          value: evaluation.value,
          threshold: evaluation.threshold,
          summary: evaluation.summary,
          silenced: silenced ? 1 : 0,
          at,
        });
      }
      if (!next.notify || silenced) return 0;
      const content = this.contentOf(rule, evaluation, next, next.notify);
      for (const contactPointId of rule.contact_point_ids) {
        await notificationsRepo.insertNotification(
          trx,
          this.notifier.newRow(contactPointId, rule, content, now),
        );
      }
      return rule.contact_point_ids.length;
    });
  }

  private contentOf(
    rule: rulesRepo.RuleRecord,
    evaluation: AlertEvaluation,
    next: Step,
    kind: NonNullable<Step['notify']>,
  ): NotificationContent {
    const prev = runtimeOf(rule);
    // A resolved alert started when the episode it ends did; a firing one when its condition began to hold.
    const started =
      kind === 'resolved'
        ? (prev.pending_since ?? prev.state_since)
        : (next.next.pending_since ?? next.next.state_since);
    return {
      version: 1,
      kind,
      rule: { id: rule.id, name: rule.name, severity: rule.severity, condition: rulesRepo.conditionOf(rule) },
      state: next.next.state,
      previous_state: next.transition?.from ?? prev.state,
      value: evaluation.value,
      threshold: evaluation.threshold,
      summary: evaluation.summary,
      started_at: started,
      url: this.notifier.ruleUrl(rule.id),
      unit: evaluation.unit,
    };
  }
}
