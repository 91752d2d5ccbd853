import { WEEKDAYS, type AlertSeverity, type Weekday } from '@lumi/contract';
import { Cron } from 'croner';

/**
 * When a silence mutes which rules (docs/bot-developers/alerts.md, "Silences"). Pure: the time is passed in.
 *
 * - A silence covers one rule (`rule_id`), every rule of a severity, or (neither) every rule.
 * - `once`: from `starts_at` (its creation when left out) until `ends_at`.
 * - `recurring`: a maintenance window on each of `weekdays` from `start_time` for `duration_minutes`, read
 *   in `timezone`. The window starts are worked out by croner (as the schedules' runs are), so daylight-
 *   saving days are right: a start in the spring gap opens at the first time after it, one in the autumn
 *   overlap opens once, and a window lasts its minutes of real time whatever the clock does meanwhile. A
 *   window that began on an earlier day and runs past midnight counts too.
 */

export interface SilenceWindow {
  kind: 'once' | 'recurring';
  rule_id: number | null;
  severity: AlertSeverity | null;
  starts_at: string | null;
  ends_at: string | null;
  weekdays: Weekday[] | null;
  start_time: string | null;
  duration_minutes: number | null;
  timezone: string | null;
  created_at: string;
}

export interface SilenceStatus {
  status: 'active' | 'scheduled' | 'expired';
  /** The end of the current window, or the start of the next one; null when there is none. */
  next_change_at: string | null;
}

/** A week of daily windows at most: the longest a recurring window can be (7 days) holds fewer. */
const MAX_JOINED_WINDOWS = 16;
const MAX_CRONS = 500;
const crons = new Map<string, Cron>();

/** The window starts of a recurring silence, kept by pattern and zone (an evaluation pass asks per rule). */
function windowStarts(s: SilenceWindow): Cron {
  const [hour, minute] = (s.start_time ?? '00:00').split(':').map(Number) as [number, number];
  const days = (s.weekdays ?? []).map((day) => WEEKDAYS.indexOf(day)).join(',');
  const timezone = s.timezone ?? 'UTC';
  const key = `${minute} ${hour} * * ${days}|${timezone}`;
  let cron = crons.get(key);
  if (!cron) {
    cron = new Cron(`${minute} ${hour} * * ${days}`, { timezone, paused: true });
    if (crons.size >= MAX_CRONS) crons.delete(crons.keys().next().value!);
    crons.set(key, cron);
  }
  return cron;
}

function recurringStatus(s: SilenceWindow, now: number): SilenceStatus {
  if (!s.weekdays || s.weekdays.length === 0) return { status: 'scheduled', next_change_at: null };
  const cron = windowStarts(s);
  const duration = (s.duration_minutes ?? 0) * 60_000;
  // The first start after now − duration: a window that started earlier has ended by now.
  const first = cron.nextRun(new Date(now - duration));
  if (!first) return { status: 'scheduled', next_change_at: null };
  if (first.getTime() > now) return { status: 'scheduled', next_change_at: first.toISOString() };
  // Active: it ends when the last of the windows that overlap or touch this one ends.
  let end = first.getTime() + duration;
  let start: Date | null = first;
  for (let i = 0; i < MAX_JOINED_WINDOWS; i += 1) {
    start = cron.nextRun(start);
    if (!start || start.getTime() > end) break;
    end = Math.max(end, start.getTime() + duration);
  }
  return { status: 'active', next_change_at: new Date(end).toISOString() };
}

/** Whether `s` mutes now, and when that changes. */
export function silenceStatus(s: SilenceWindow, now: number): SilenceStatus {
  if (s.kind === 'recurring') return recurringStatus(s, now);
  const start = Date.parse(s.starts_at ?? s.created_at);
  const end = s.ends_at === null ? Number.POSITIVE_INFINITY : Date.parse(s.ends_at);
  if (now < start) return { status: 'scheduled', next_change_at: new Date(start).toISOString() };
  if (now < end)
    return { status: 'active', next_change_at: s.ends_at === null ? null : new Date(end).toISOString() };
  return { status: 'expired', next_change_at: null };
}

/** Whether `s` covers the rule: the same rule, the same severity, or every rule. */
function covers(s: SilenceWindow, rule: { id: number; severity: AlertSeverity }): boolean {
  if (s.rule_id !== null) return s.rule_id === rule.id;
  if (s.severity !== null) return s.severity === rule.severity;
  return true;
}

/** A pass asks about the same silences for every rule at one instant: each is worked out once. */
const statusAt = new WeakMap<SilenceWindow, { now: number; active: boolean }>();

function isActive(s: SilenceWindow, now: number): boolean {
  const known = statusAt.get(s);
  if (known && known.now === now) return known.active;
  const active = silenceStatus(s, now).status === 'active';
  statusAt.set(s, { now, active });
  return active;
}

/** Whether any active silence covers the rule at `now`. */
export function isSilenced(
  rule: { id: number; severity: AlertSeverity },
  silences: SilenceWindow[],
  now: number,
): boolean {
  return silences.some((s) => covers(s, rule) && isActive(s, now));
}
