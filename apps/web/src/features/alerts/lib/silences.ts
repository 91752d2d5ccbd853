import {
  ALERT_MESSAGES,
  ALERT_SEVERITIES,
  SILENCE_END_NOW,
  silenceEndHasPassed,
  silenceInputSchema,
  WEEKDAYS,
  type AlertSeverity,
  type Silence,
  type SilenceInput,
  type SilenceUpdate,
  type Weekday,
} from '@lumi/contract';
import { z } from 'zod';
import { capitalised, formatDateTime, toLocalInput } from '@/lib/format';

const plural = (day: Weekday) => `${capitalised(day)}s`;

/** When a silence mutes: "until 24 Nov 2026, 18:00" or "Sundays 02:00–03:00 Europe/Berlin". */
export function describeSilenceWhen(silence: Silence): string {
  if (silence.kind === 'once') {
    const until = `until ${formatDateTime(silence.ends_at)}`;
    return silence.starts_at ? `${formatDateTime(silence.starts_at)} ${until}` : until;
  }
  const days = silence.weekdays ?? [];
  const dayText = days.length === 7 ? 'Every day' : days.map(plural).join(', ');
  return `${dayText} ${silence.start_time ?? ''}–${endTime(silence.start_time, silence.duration_minutes)} ${silence.timezone ?? ''}`.trim();
}

/** The wall-clock end of a window: start plus duration, past midnight as "+1 d". */
export function endTime(start: string | null, durationMinutes: number | null): string {
  if (!start || durationMinutes === null) return '';
  const [hours, minutes] = start.split(':').map(Number);
  const total = (hours ?? 0) * 60 + (minutes ?? 0) + durationMinutes;
  const days = Math.floor(total / 1440);
  const inDay = total % 1440;
  const text = `${String(Math.floor(inDay / 60)).padStart(2, '0')}:${String(inDay % 60).padStart(2, '0')}`;
  return days > 0 ? `${text} (+${days} d)` : text;
}

/** What a silence mutes, in words. */
export function describeSilenceScope(silence: Silence): string {
  if (silence.rule_id !== null) return `Rule: ${silence.rule_name ?? `#${silence.rule_id}`}`;
  if (silence.severity !== null) return `Every ${silence.severity} rule`;
  return 'All rules';
}

/** The scope select's value: 'all', 'severity:critical' or 'rule:7'. */
export type ScopeValue = 'all' | `severity:${AlertSeverity}` | `rule:${number}`;

/**
 * The silence dialog's form: the scope as one choice, times as the inputs hold them (datetime-local in
 * the browser's time zone). Checked with the contract's schema and its rule for an end that has passed,
 * so the messages are the server's.
 */
export const silenceFormSchema = z
  .object({
    kind: z.enum(['once', 'recurring']),
    scope: z.string(),
    starts_at: z.string(),
    ends_at: z.string(),
    weekdays: z.array(z.enum(WEEKDAYS)),
    start_time: z.string(),
    duration_minutes: z.number(),
    timezone: z.string(),
    comment: z.string(),
  })
  .superRefine((values, ctx) => {
    const input = toSilenceInput(values);
    const issues = silenceInputSchema.safeParse(input).error?.issues ?? [];
    for (const issue of issues) {
      const field = String(issue.path[0] ?? '');
      const target = field === 'rule_id' || field === 'severity' ? 'scope' : field;
      // An empty end is not a malformed time: say what to do.
      const message =
        target === 'ends_at' && !values.ends_at ? 'Choose when the silence ends' : issue.message;
      if (target in values) ctx.addIssue({ code: 'custom', path: [target], message });
    }
    // The server judges by its own clock; the browser's catches the plain mistake before sending.
    if (!issues.some((issue) => issue.path[0] === 'ends_at') && silenceEndHasPassed(input, Date.now())) {
      ctx.addIssue({ code: 'custom', path: ['ends_at'], message: ALERT_MESSAGES.endsPassed });
    }
  });
export type SilenceFormValues = z.input<typeof silenceFormSchema>;

function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function silenceFormDefaults(scope: ScopeValue = 'all'): SilenceFormValues {
  return {
    kind: 'once',
    scope,
    starts_at: '',
    ends_at: '',
    weekdays: ['sunday'],
    start_time: '02:00',
    duration_minutes: 60,
    timezone: localTimeZone(),
    comment: '',
  };
}

/** What an existing silence mutes, as the scope select's value. */
function scopeValueOf(silence: Silence): ScopeValue {
  if (silence.rule_id !== null) return `rule:${silence.rule_id}`;
  if (silence.severity !== null) return `severity:${silence.severity}`;
  return 'all';
}

/** The form of an existing silence, to edit; the other kind's fields keep their defaults. */
export function silenceFormOf(silence: Silence): SilenceFormValues {
  const defaults = silenceFormDefaults(scopeValueOf(silence));
  return {
    ...defaults,
    kind: silence.kind,
    comment: silence.comment,
    ...(silence.kind === 'once'
      ? { starts_at: toLocalInput(silence.starts_at), ends_at: toLocalInput(silence.ends_at) }
      : {
          weekdays: silence.weekdays ?? defaults.weekdays,
          start_time: silence.start_time ?? defaults.start_time,
          duration_minutes: silence.duration_minutes ?? defaults.duration_minutes,
          timezone: silence.timezone ?? defaults.timezone,
        }),
  };
}

/** A datetime-local value (the browser's time zone) as an ISO instant; empty stays empty. */
function toInstant(local: string): string {
  if (!local) return '';
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
}

function scopeOf(scope: string): { rule_id: number | null; severity: AlertSeverity | null } {
  const [kind, value] = scope.split(':');
  if (kind === 'rule') return { rule_id: Number(value), severity: null };
  const severity = ALERT_SEVERITIES.find((candidate) => candidate === value) ?? null;
  return { rule_id: null, severity };
}

/** The request the form stands for. */
export function toSilenceInput(values: SilenceFormValues): SilenceInput {
  const common = { ...scopeOf(values.scope), comment: values.comment };
  return values.kind === 'once'
    ? {
        kind: 'once',
        ...common,
        starts_at: toInstant(values.starts_at) || null,
        ends_at: toInstant(values.ends_at),
      }
    : {
        kind: 'recurring',
        ...common,
        weekdays: values.weekdays,
        start_time: values.start_time,
        duration_minutes: values.duration_minutes,
        timezone: values.timezone,
      };
}

/** The edit that ends an active once silence now (the server's time), keeping the rest as it is. */
export function endNowInput(silence: Silence): SilenceUpdate {
  return {
    kind: 'once',
    rule_id: silence.rule_id,
    severity: silence.severity,
    comment: silence.comment,
    starts_at: silence.starts_at,
    ends_at: SILENCE_END_NOW,
  };
}
