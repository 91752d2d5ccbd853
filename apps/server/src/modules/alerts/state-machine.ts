import type { AlertConditionType, AlertEvaluation, AlertNoData, AlertState } from '@lumi/contract';
import { isoTime } from '../../lib/time.js';

/**
 * A rule's states (docs/bot-developers/alerts.md, "States"): OK → Pending → Firing → OK (resolved), one step
 * per evaluation. Pure: the evaluator stores what comes out, records a history entry for each transition and
 * sends the notification it names.
 *
 * - The condition holding moves OK to Pending, and Pending to Firing once it has held `pending_seconds`
 *   (0: OK goes straight to Firing). It not holding moves Pending or Firing back to OK.
 * - No data counts as not holding (`no_data: ok`), as holding (`alerting`), or changes nothing (`keep`).
 * - Firing notifies once; a silence only holds the notification back, so a rule that fired during a
 *   silence notifies at the first evaluation after it. While firing it notifies again every
 *   `renotify_minutes` (0: never), except budget rules: usage only grows within a day and falls back at
 *   the day's turn, so each of their thresholds fires once a day.
 * - Resolving notifies when `notify_on_resolve`, not silenced, and the firing was notified.
 */

export interface RuleRuntime {
  state: AlertState;
  /** When the rule entered its state; null before its first change. */
  state_since: string | null;
  /** When the condition started to hold, while pending or firing. */
  pending_since: string | null;
  /** When the current firing was last notified; null before its first notification. */
  last_notified_at: string | null;
}

export interface RuleSettings {
  condition_type: AlertConditionType;
  pending_seconds: number;
  no_data: AlertNoData;
  renotify_minutes: number;
  notify_on_resolve: boolean;
}

export interface Step {
  next: RuleRuntime;
  transition: { from: AlertState; to: AlertState } | null;
  notify: 'firing' | 'renotify' | 'resolved' | null;
}

export const INITIAL_RUNTIME: RuleRuntime = {
  state: 'ok',
  state_since: null,
  pending_since: null,
  last_notified_at: null,
};

/** Whether the condition counts as holding; null when no data keeps the state. */
function holding(rule: RuleSettings, evaluation: AlertEvaluation): boolean | null {
  if (evaluation.holds !== null) return evaluation.holds;
  if (rule.no_data === 'ok') return false;
  if (rule.no_data === 'alerting') return true;
  return null;
}

/** A firing rule's notification at `now`, if one is due. */
function firingNotice(rule: RuleSettings, prev: RuleRuntime, now: number, silenced: boolean): Step['notify'] {
  if (silenced) return null;
  if (prev.last_notified_at === null) return 'firing';
  if (rule.renotify_minutes === 0 || rule.condition_type === 'budget_usage') return null;
  const since = now - Date.parse(prev.last_notified_at);
  return since >= rule.renotify_minutes * 60_000 ? 'renotify' : null;
}

/** Firing at `now`, notified unless silenced. */
function fire(prev: RuleRuntime, pendingSince: string, now: number, silenced: boolean): Step {
  const at = isoTime(now);
  return {
    next: {
      state: 'firing',
      state_since: at,
      pending_since: pendingSince,
      last_notified_at: silenced ? null : at,
    },
    transition: { from: prev.state, to: 'firing' },
    notify: silenced ? null : 'firing',
  };
}

/** One evaluation's step of a rule at `now` (ms). */
export function step(
  rule: RuleSettings,
  prev: RuleRuntime,
  evaluation: AlertEvaluation,
  now: number,
  silenced: boolean,
): Step {
  const holds = holding(rule, evaluation);
  const at = isoTime(now);

  if (prev.state === 'firing' && holds !== false) {
    // Still firing (or no data that keeps it so): notify when one is due.
    const notify = firingNotice(rule, prev, now, silenced);
    return { next: notify ? { ...prev, last_notified_at: at } : prev, transition: null, notify };
  }
  if (holds === null) return { next: prev, transition: null, notify: null };

  if (!holds) {
    if (prev.state === 'ok') return { next: prev, transition: null, notify: null };
    const notify =
      prev.state === 'firing' && rule.notify_on_resolve && !silenced && prev.last_notified_at !== null
        ? 'resolved'
        : null;
    return {
      next: { state: 'ok', state_since: at, pending_since: null, last_notified_at: null },
      transition: { from: prev.state, to: 'ok' },
      notify,
    };
  }

  if (prev.state === 'ok') {
    if (rule.pending_seconds === 0) return fire(prev, at, now, silenced);
    return {
      next: { state: 'pending', state_since: at, pending_since: at, last_notified_at: null },
      transition: { from: 'ok', to: 'pending' },
      notify: null,
    };
  }
  // Pending: fire once the condition has held the whole pending period.
  const pendingSince = prev.pending_since ?? prev.state_since ?? at;
  if (now - Date.parse(pendingSince) >= rule.pending_seconds * 1000) {
    return fire(prev, pendingSince, now, silenced);
  }
  return { next: prev, transition: null, notify: null };
}
