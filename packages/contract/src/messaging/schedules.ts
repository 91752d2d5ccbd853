import { z } from 'zod';
import { idSchema, requiredName, wholeNumberText } from '../fields.js';
import { DELIVERY_STATUSES } from './deliveries.js';
import { MESSAGING_LIMITS, MESSAGING_MESSAGES } from './constants.js';
import { sampleData } from './shared-fields.js';
import { groupedNumber } from '../text.js';

/**
 * Schedules (docs/bot-developers/deliveries.md, "Schedules"): a template sent on a recurrence in an IANA time
 * zone, with data that is fixed or comes from a source Lumi knows. Each run becomes one delivery, unique per
 * schedule and run time.
 */

/** Where a run's data comes from; the sources' variables are in the variables catalogue. */
export const SCHEDULE_DATA_SOURCES = ['fixed', 'llm_usage_yesterday', 'bot_health', 'token_budgets'] as const;
export type ScheduleDataSource = (typeof SCHEDULE_DATA_SOURCES)[number];

export const SCHEDULE_DATA_SOURCE_LABELS: Record<ScheduleDataSource, string> = {
  fixed: 'Fixed JSON',
  llm_usage_yesterday: 'LLM usage yesterday',
  bot_health: 'Bot health now',
  token_budgets: 'Token budgets today',
};

/** Cron's day numbers: Sunday is 0. */
export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** "Every N hours" starts at local midnight, so N divides the day and every day runs alike. */
export const SCHEDULE_EVERY_HOURS = [1, 2, 3, 4, 6, 8, 12] as const;

export const SCHEDULE_LIMITS = {
  maxRunsMax: 1_000_000,
  cronMax: 100,
  /** Run times one preview lists. */
  previewRuns: 5,
} as const;

export const SCHEDULE_MESSAGES = {
  nameRequired: 'Name the schedule',
  nameMax: `At most ${MESSAGING_LIMITS.nameMax} characters`,
  templateRequired: 'Choose the template to send',
  time: 'Use a 24-hour time such as 09:00',
  cronFields:
    'A cron expression has five fields: minute, hour, day of month, month and day of week (such as 0 9 * * 1)',
  everyHours: `Every ${SCHEDULE_EVERY_HOURS.join(', ')} hours (a number that divides the day)`,
  timezone: 'Use an IANA time zone such as UTC or Europe/Berlin',
  maxRuns: `A whole number from 1 to ${groupedNumber(SCHEDULE_LIMITS.maxRunsMax)}`,
  endsAt: 'Must be an ISO 8601 time with Z or an offset',
  versionRequired: MESSAGING_MESSAGES.versionRequired,
} as const;

/** True for a name the runtime's time zone database knows (browsers and Node.js alike). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const time = z
  .string({ error: SCHEDULE_MESSAGES.time })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, SCHEDULE_MESSAGES.time);

export const recurrenceSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('cron'),
      // Five fields, so no schedule runs more often than once a minute; croner checks the values (server).
      cron: z
        .string({ error: SCHEDULE_MESSAGES.cronFields })
        .trim()
        .max(SCHEDULE_LIMITS.cronMax, SCHEDULE_MESSAGES.cronFields)
        .refine((cron) => cron.split(/\s+/).length === 5, SCHEDULE_MESSAGES.cronFields),
    }),
    z.object({ kind: z.literal('daily'), time }),
    z.object({ kind: z.literal('weekly'), weekday: z.enum(WEEKDAYS), time }),
    z.object({
      kind: z.literal('every'),
      hours: z
        .number({ error: SCHEDULE_MESSAGES.everyHours })
        .int(SCHEDULE_MESSAGES.everyHours)
        .refine(
          (hours) => (SCHEDULE_EVERY_HOURS as readonly number[]).includes(hours),
          SCHEDULE_MESSAGES.everyHours,
        ),
    }),
  ],
  { error: 'Choose a recurrence: cron, daily, weekly or every' },
);
export type Recurrence = z.infer<typeof recurrenceSchema>;

/** The cron expression a recurrence stands for (croner reads it in the schedule's time zone). */
export function recurrenceCron(recurrence: Recurrence): string {
  switch (recurrence.kind) {
    case 'cron':
      return recurrence.cron;
    case 'daily': {
      const [hour, minute] = recurrence.time.split(':').map(Number);
      return `${minute} ${hour} * * *`;
    }
    case 'weekly': {
      const [hour, minute] = recurrence.time.split(':').map(Number);
      return `${minute} ${hour} * * ${WEEKDAYS.indexOf(recurrence.weekday)}`;
    }
    case 'every':
      return recurrence.hours === 1 ? '0 * * * *' : `0 */${recurrence.hours} * * *`;
  }
}

/** The recurrence in words, as lists show it: "Every Monday at 09:00". */
export function describeRecurrence(recurrence: Recurrence): string {
  switch (recurrence.kind) {
    case 'cron':
      return `Cron ${recurrence.cron}`;
    case 'daily':
      return `Every day at ${recurrence.time}`;
    case 'weekly':
      return `Every ${recurrence.weekday[0]!.toUpperCase()}${recurrence.weekday.slice(1)} at ${recurrence.time}`;
    case 'every':
      return recurrence.hours === 1 ? 'Every hour' : `Every ${recurrence.hours} hours`;
  }
}

const timezone = z
  .string({ error: SCHEDULE_MESSAGES.timezone })
  .trim()
  .min(1, SCHEDULE_MESSAGES.timezone)
  .max(100, SCHEDULE_MESSAGES.timezone)
  .refine(isTimeZone, SCHEDULE_MESSAGES.timezone);

/** A schedule's fields, the one list the create, update and snapshot shapes are built from. */
const scheduleFields = {
  name: requiredName(SCHEDULE_MESSAGES.nameRequired, MESSAGING_LIMITS.nameMax, SCHEDULE_MESSAGES.nameMax),
  template_id: z.number({ error: SCHEDULE_MESSAGES.templateRequired }).pipe(idSchema),
  /** Another channel than the template's. */
  channel_id: idSchema.nullable(),
  /** A forum topic of the channel (or of the template's channel). */
  topic_id: idSchema.nullable(),
  recurrence: recurrenceSchema,
  timezone,
  data_source: z.enum(SCHEDULE_DATA_SOURCES),
  /** The data of every run when data_source is 'fixed'. */
  data: sampleData.unwrap(),
  /** No run at or after this time. */
  ends_at: z.iso.datetime({ offset: true, error: SCHEDULE_MESSAGES.endsAt }).nullable(),
  /** The schedule ends after this many deliveries. */
  max_runs: z
    .number({ error: SCHEDULE_MESSAGES.maxRuns })
    .int(SCHEDULE_MESSAGES.maxRuns)
    .min(1, SCHEDULE_MESSAGES.maxRuns)
    .max(SCHEDULE_LIMITS.maxRunsMax, SCHEDULE_MESSAGES.maxRuns)
    .nullable(),
  enabled: z.boolean(),
};
export type ScheduleField = keyof typeof scheduleFields;
export const SCHEDULE_FIELDS = Object.keys(scheduleFields) as ScheduleField[];

export const scheduleInputSchema = z.object({
  ...scheduleFields,
  channel_id: scheduleFields.channel_id.optional().transform((v) => v ?? null),
  topic_id: scheduleFields.topic_id.optional().transform((v) => v ?? null),
  timezone: timezone.default('UTC'),
  data_source: scheduleFields.data_source.default('fixed'),
  data: sampleData,
  ends_at: scheduleFields.ends_at.optional().transform((v) => v ?? null),
  max_runs: scheduleFields.max_runs.optional().transform((v) => v ?? null),
  enabled: z.boolean().default(true),
});
export type ScheduleInput = z.input<typeof scheduleInputSchema>;
export type ScheduleValues = z.output<typeof scheduleInputSchema>;

/** PUT: `version` is the one the edit started from; fields left out keep their values. */
export const scheduleUpdateSchema = z
  .object(scheduleFields)
  .partial()
  .extend({ version: z.number({ error: SCHEDULE_MESSAGES.versionRequired }).int().positive() });
export type ScheduleUpdate = z.output<typeof scheduleUpdateSchema>;

/** The fields a version keeps, as answers carry them (typed, not re-validated). */
export const scheduleSnapshotSchema = z.object({
  name: z.string(),
  template_id: z.number().int(),
  channel_id: z.number().int().nullable(),
  topic_id: z.number().int().nullable(),
  recurrence: recurrenceSchema,
  timezone: z.string(),
  data_source: z.enum(SCHEDULE_DATA_SOURCES),
  data: z.record(z.string(), z.unknown()),
  ends_at: z.string().nullable(),
  max_runs: z.number().int().nullable(),
  enabled: z.boolean(),
});
export type ScheduleSnapshot = z.infer<typeof scheduleSnapshotSchema>;

/** What became of a run: its delivery's status, or why no delivery was made. */
export const SCHEDULE_RUN_OUTCOMES = [...DELIVERY_STATUSES, 'skipped', 'not_queued'] as const;
export type ScheduleRunOutcome = (typeof SCHEDULE_RUN_OUTCOMES)[number];

export const scheduleSchema = scheduleSnapshotSchema
  .extend({
    id: z.number().int(),
    version: z.number().int(),
    template_name: z.string().nullable(),
    /** The next run time; null when paused or ended. */
    next_run_at: z.string().nullable(),
    /** Deliveries made so far. */
    run_count: z.number().int(),
    last_result: z
      .object({
        run_at: z.string(),
        outcome: z.enum(SCHEDULE_RUN_OUTCOMES),
        delivery_id: z.number().int().nullable(),
        /** Why it was skipped or not queued, or why its delivery failed. */
        detail: z.string().nullable(),
      })
      .nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'MessageSchedule' });
export type Schedule = z.infer<typeof scheduleSchema>;

export const schedulePreviewRequestSchema = z.object({
  recurrence: recurrenceSchema,
  timezone,
  /** Runs after this time; now when left out. */
  from: z.iso.datetime({ offset: true }).optional(),
});
export type SchedulePreviewRequest = z.input<typeof schedulePreviewRequestSchema>;

export const schedulePreviewSchema = z
  .object({
    cron: z.string(),
    description: z.string(),
    /** The next run times, ISO 8601 UTC. */
    runs: z.array(z.string()),
  })
  .meta({ id: 'SchedulePreview' });
export type SchedulePreview = z.infer<typeof schedulePreviewSchema>;

export const scheduleListResponseSchema = z.object({ schedules: z.array(scheduleSchema) });
export type ScheduleListResponse = z.infer<typeof scheduleListResponseSchema>;

/** A delete names the version it was shown, so it never removes an edit the user has not seen. */
export const scheduleDeleteQuerySchema = z.object({
  version: wholeNumberText(SCHEDULE_MESSAGES.versionRequired).pipe(idSchema),
});
