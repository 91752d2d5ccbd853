import { recurrenceCron, type Recurrence } from '@lumi/contract';
import { Cron } from 'croner';

/**
 * When a schedule runs, by croner (https://croner.56k.guru): the recurrence's cron expression read in the
 * schedule's IANA time zone. Croner handles daylight-saving days: a time that does not exist (02:30 on the
 * spring change) runs at the first time after the gap, and a time that exists twice (the autumn change)
 * runs once, while hourly expressions keep an hour apart.
 */

/** The recurrence's run times, or the reason it cannot be read (croner's, for a bad field). */
export function runTimes(recurrence: Recurrence, timezone: string): Cron {
  return new Cron(recurrenceCron(recurrence), { timezone, paused: true });
}

/** Why a cron expression cannot be read, or null when croner reads it. */
export function cronProblem(recurrence: Recurrence, timezone: string): string | null {
  try {
    runTimes(recurrence, timezone).nextRun();
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^CronPattern: /, '');
  }
}

/** Where a schedule stops: its end time and run count. */
export interface ScheduleEnd {
  ends_at: string | null;
  max_runs: number | null;
}

/** The first run strictly after `after` (ms) within the schedule's end, or null when it has ended. */
export function nextRunAfter(cron: Cron, after: number, end: ScheduleEnd, runCount: number): number | null {
  if (end.max_runs !== null && runCount >= end.max_runs) return null;
  const next = cron.nextRun(new Date(after));
  if (!next) return null;
  if (end.ends_at !== null && next.getTime() >= Date.parse(end.ends_at)) return null;
  return next.getTime();
}

/** Up to `count` run times after `from`, ISO 8601 UTC. */
export function nextRuns(cron: Cron, from: number, count: number): string[] {
  return cron.nextRuns(count, new Date(from)).map((date) => date.toISOString());
}
