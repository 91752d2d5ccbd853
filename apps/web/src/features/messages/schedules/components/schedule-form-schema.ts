import {
  isTimeZone,
  recurrenceSchema,
  SCHEDULE_DATA_SOURCES,
  SCHEDULE_MESSAGES,
  scheduleInputSchema,
  WEEKDAYS,
  type Recurrence,
  type Schedule,
  type ScheduleInput,
} from '@lumi/contract';
import { z } from 'zod';
import { toLocalInput } from '@/lib/format';

/**
 * The schedule dialog's form: the recurrence builder's fields side by side (only the chosen kind's are
 * used), the fixed data as JSON text. Checked with the contract's own schemas, so the messages are the
 * server's; toScheduleInput turns it into the request.
 */
export const RECURRENCE_KINDS = ['daily', 'weekly', 'every', 'cron'] as const;

export const scheduleFormSchema = z
  .object({
    name: scheduleInputSchema.shape.name,
    template_id: z.string().min(1, SCHEDULE_MESSAGES.templateRequired),
    kind: z.enum(RECURRENCE_KINDS),
    time: z.string(),
    weekday: z.enum(WEEKDAYS),
    hours: z.string(),
    cron: z.string(),
    timezone: z.string().refine(isTimeZone, SCHEDULE_MESSAGES.timezone),
    data_source: z.enum(SCHEDULE_DATA_SOURCES),
    data_text: z.string(),
    max_runs: z.string(),
    /** A datetime-local value in the browser's time zone, or empty. */
    ends_at: z.string(),
    enabled: z.boolean(),
  })
  .superRefine((values, ctx) => {
    const recurrence = recurrenceSchema.safeParse(recurrenceOf(values));
    for (const issue of recurrence.error?.issues ?? []) {
      const field = issue.path[0];
      if (field === 'time' || field === 'hours' || field === 'cron') {
        ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
      }
    }
    if (values.data_source === 'fixed' && parseData(values.data_text) === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['data_text'],
        message: 'Must be a JSON object, such as {"name": "Pepe"}',
      });
    }
    if (values.ends_at && Number.isNaN(Date.parse(values.ends_at))) {
      ctx.addIssue({
        code: 'custom',
        path: ['ends_at'],
        message: 'Enter a date and time, or leave it empty',
      });
    }
    const maxRuns = values.max_runs.trim();
    if (maxRuns && !scheduleInputSchema.shape.max_runs.safeParse(Number(maxRuns)).success) {
      ctx.addIssue({ code: 'custom', path: ['max_runs'], message: SCHEDULE_MESSAGES.maxRuns });
    }
  });
export type ScheduleFormValues = z.input<typeof scheduleFormSchema>;

/** The recurrence the builder's fields describe (not yet checked). */
export function recurrenceOf(
  values: Pick<ScheduleFormValues, 'kind' | 'time' | 'weekday' | 'hours' | 'cron'>,
) {
  switch (values.kind) {
    case 'daily':
      return { kind: 'daily', time: values.time };
    case 'weekly':
      return { kind: 'weekly', weekday: values.weekday, time: values.time };
    case 'every':
      return { kind: 'every', hours: Number(values.hours) };
    case 'cron':
      return { kind: 'cron', cron: values.cron };
  }
}

/** The builder's recurrence when it is complete and valid, else null (no preview is asked for). */
export function checkedRecurrence(values: ScheduleFormValues): Recurrence | null {
  const parsed = recurrenceSchema.safeParse(recurrenceOf(values));
  return parsed.success ? parsed.data : null;
}

function parseData(text: string): Record<string, unknown> | null {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The browser's own time zone, the default of a new schedule. */
function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function formDefaults(schedule?: Schedule): ScheduleFormValues {
  const recurrence = schedule?.recurrence;
  return {
    name: schedule?.name ?? '',
    template_id: schedule ? String(schedule.template_id) : '',
    kind: recurrence?.kind ?? 'daily',
    time: recurrence && 'time' in recurrence ? recurrence.time : '09:00',
    weekday: recurrence?.kind === 'weekly' ? recurrence.weekday : 'monday',
    hours: recurrence?.kind === 'every' ? String(recurrence.hours) : '4',
    cron: recurrence?.kind === 'cron' ? recurrence.cron : '0 9 * * 1-5',
    timezone: schedule?.timezone ?? localTimeZone(),
    data_source: schedule?.data_source ?? 'fixed',
    data_text:
      schedule && Object.keys(schedule.data).length > 0 ? JSON.stringify(schedule.data, null, 2) : '',
    max_runs: schedule?.max_runs ? String(schedule.max_runs) : '',
    ends_at: schedule?.ends_at ? toLocalInput(schedule.ends_at) : '',
    enabled: schedule?.enabled ?? true,
  };
}

/** The request the checked form stands for; the channel and topic stay as they were (the template's by default). */
export function toScheduleInput(values: ScheduleFormValues, schedule?: Schedule): ScheduleInput {
  return {
    name: values.name,
    template_id: Number(values.template_id),
    channel_id: schedule?.channel_id ?? null,
    topic_id: schedule?.topic_id ?? null,
    recurrence: recurrenceOf(values) as Recurrence,
    timezone: values.timezone,
    data_source: values.data_source,
    data: values.data_source === 'fixed' ? (parseData(values.data_text) ?? {}) : {},
    // A datetime-local value has no offset: the Date constructor reads it in the browser's time zone.
    ends_at: values.ends_at ? new Date(values.ends_at).toISOString() : null,
    max_runs: values.max_runs.trim() ? Number(values.max_runs) : null,
    enabled: values.enabled,
  };
}
