import { z } from 'zod';
import { idSchema, requiredString } from '../fields.js';
import { isTimeZone, WEEKDAYS } from '../messaging/schedules.js';
import { ALERT_LIMITS, ALERT_MESSAGES, ALERT_SEVERITIES } from './constants.js';

/** Silences: once or recurring windows that keep an alert from notifying (docs/bot-developers/alerts.md). */

export const SILENCE_KINDS = ['once', 'recurring'] as const;
export type SilenceKind = (typeof SILENCE_KINDS)[number];

const silenceTime = z
  .string({ error: ALERT_MESSAGES.time })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, ALERT_MESSAGES.time);
const silenceTimezone = z
  .string({ error: ALERT_MESSAGES.timezone })
  .trim()
  .min(1, ALERT_MESSAGES.timezone)
  .max(100, ALERT_MESSAGES.timezone)
  .refine(isTimeZone, ALERT_MESSAGES.timezone);
const isoTime = z.iso.datetime({ offset: true, error: ALERT_MESSAGES.endsAt });

/** What a silence mutes: one rule, every rule of a severity, or (neither) every rule. */
const silenceScope = {
  rule_id: idSchema.nullish().transform((v) => v ?? null),
  severity: z
    .enum(ALERT_SEVERITIES)
    .nullish()
    .transform((v) => v ?? null),
  comment: requiredString(ALERT_MESSAGES.commentRequired).max(
    ALERT_LIMITS.commentMax,
    ALERT_MESSAGES.commentMax,
  ),
};

function oneScope(value: { rule_id: number | null; severity: string | null }, ctx: z.RefinementCtx) {
  if (value.rule_id !== null && value.severity !== null) {
    ctx.addIssue({ code: 'custom', path: ['severity'], message: ALERT_MESSAGES.silenceScope });
  }
}

/** From `starts_at` (now when left out) until `ends_at`. */
const onceSilence = z.object({
  kind: z.literal('once'),
  ...silenceScope,
  starts_at: isoTime.nullish().transform((v) => v ?? null),
  ends_at: isoTime,
});

/** A maintenance window: on each of `weekdays` from `start_time` for `duration_minutes`, in `timezone`. */
const recurringSilence = z.object({
  kind: z.literal('recurring'),
  ...silenceScope,
  weekdays: z
    .array(z.enum(WEEKDAYS))
    .min(1, ALERT_MESSAGES.weekdays)
    .transform((days) => WEEKDAYS.filter((day) => days.includes(day))),
  start_time: silenceTime,
  duration_minutes: z
    .number({ error: ALERT_MESSAGES.durationMinutes })
    .int(ALERT_MESSAGES.durationMinutes)
    .min(1, ALERT_MESSAGES.durationMinutes)
    .max(ALERT_LIMITS.silenceDurationMinutesMax, ALERT_MESSAGES.durationMinutes),
  timezone: silenceTimezone.default('UTC'),
});

const silenceKindError = { error: 'Choose a kind: once or recurring' };

/** What a PUT may give as a once silence's end to end it at the server's time ("End now"). */
export const SILENCE_END_NOW = 'now';

type CheckedSilence = { rule_id: number | null; severity: string | null } & (
  { kind: 'once'; starts_at: string | null; ends_at: string } | { kind: 'recurring' }
);

function checkSilence(value: CheckedSilence, ctx: z.RefinementCtx) {
  oneScope(value, ctx);
  if (
    value.kind === 'once' &&
    value.starts_at !== null &&
    value.ends_at !== SILENCE_END_NOW &&
    Date.parse(value.ends_at) <= Date.parse(value.starts_at)
  ) {
    ctx.addIssue({ code: 'custom', path: ['ends_at'], message: ALERT_MESSAGES.endsAfterStart });
  }
}

export const silenceInputSchema = z
  .discriminatedUnion('kind', [onceSilence, recurringSilence], silenceKindError)
  .superRefine(checkSilence);
export type SilenceInput = z.input<typeof silenceInputSchema>;
export type SilenceValues = z.output<typeof silenceInputSchema>;

/**
 * PUT: a silence is replaced as a whole (its kind may change). A once silence's `ends_at` may also be
 * `now`, which ends an active silence at the server's time and keeps it, expired, in the list.
 */
export const silenceUpdateSchema = z
  .discriminatedUnion(
    'kind',
    [
      onceSilence.extend({
        ends_at: z.union([z.literal(SILENCE_END_NOW), isoTime], { error: ALERT_MESSAGES.endsAt }),
      }),
      recurringSilence,
    ],
    silenceKindError,
  )
  .superRefine(checkSilence);
export type SilenceUpdate = z.input<typeof silenceUpdateSchema>;
export type SilenceUpdateValues = z.output<typeof silenceUpdateSchema>;

/**
 * Whether a once silence ends at or before `now`: it would mute nothing, so the server refuses it by its
 * own clock (ALERT_MESSAGES.endsPassed on `ends_at`) and the form checks it first by the browser's.
 */
export function silenceEndHasPassed(
  silence: { kind: string; ends_at?: string | null },
  now: number,
): boolean {
  return (
    silence.kind === 'once' &&
    typeof silence.ends_at === 'string' &&
    silence.ends_at !== SILENCE_END_NOW &&
    Date.parse(silence.ends_at) <= now
  );
}

export const silenceSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(SILENCE_KINDS),
    rule_id: z.number().int().nullable(),
    rule_name: z.string().nullable(),
    severity: z.enum(ALERT_SEVERITIES).nullable(),
    comment: z.string(),
    starts_at: z.string().nullable(),
    ends_at: z.string().nullable(),
    weekdays: z.array(z.enum(WEEKDAYS)).nullable(),
    start_time: z.string().nullable(),
    duration_minutes: z.number().int().nullable(),
    timezone: z.string().nullable(),
    /** `active` now, `scheduled` (a later start or window), or `expired` (a once silence past its end). */
    status: z.enum(['active', 'scheduled', 'expired']),
    /** The end of the current window, or the start of the next one. */
    next_change_at: z.string().nullable(),
    created_at: z.string(),
    created_by: z.string().nullable(),
  })
  .meta({ id: 'AlertSilence' });
export type Silence = z.infer<typeof silenceSchema>;

export const silenceListResponseSchema = z.object({ silences: z.array(silenceSchema) });
export type SilenceListResponse = z.infer<typeof silenceListResponseSchema>;
