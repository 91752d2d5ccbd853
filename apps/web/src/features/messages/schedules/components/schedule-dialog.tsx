import {
  describeRecurrence,
  SCHEDULE_DATA_SOURCE_LABELS,
  SCHEDULE_DATA_SOURCES,
  SCHEDULE_EVERY_HOURS,
  WEEKDAYS,
  type Schedule,
} from '@lumi/contract';
import { useWatch } from 'react-hook-form';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input, Select, Textarea } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { capitalised, formatInZone } from '@/lib/format';
import { useFormDialog } from '@/lib/use-form-dialog';
import { RequiredLabel } from '@/components/ui/required-label';
import { TimeZoneSelect } from '@/components/ui/time-zone-select';
import { useTemplates } from '../../templates/api/list-templates';
import { useSchedulePreview } from '../api/preview-schedule';
import { useSaveSchedule } from '../api/save-schedule';
import {
  checkedRecurrence,
  formDefaults,
  RECURRENCE_KINDS,
  scheduleFormSchema,
  toScheduleInput,
  type ScheduleFormValues,
} from './schedule-form-schema';

const KIND_LABELS: Record<(typeof RECURRENCE_KINDS)[number], string> = {
  daily: 'Every day',
  weekly: 'Every week',
  every: 'Every N hours',
  cron: 'Cron expression',
};

/**
 * Where the server's 422 messages go. It names a cron expression croner cannot read `recurrence.cron`
 * (the other kinds are built from values this form has checked), so that message sits under the cron
 * field, where editing the expression takes it away; in the form's alert it would stay until the next save.
 */
const SERVER_FIELDS = {
  name: 'name',
  template_id: 'template_id',
  recurrence: 'cron',
  timezone: 'timezone',
  max_runs: 'max_runs',
  ends_at: 'ends_at',
} as const;

interface ScheduleDialogProps {
  /** The schedule to edit, or none to create one. */
  schedule?: Schedule;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Create or edit a schedule: template, recurrence builder, time zone, data, limits, with its next runs. */
export function ScheduleDialog({ schedule, open, onOpenChange }: ScheduleDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={schedule ? `Edit Schedule: ${schedule.name}` : 'New Schedule'}
      className="max-w-2xl"
    >
      {open && <ScheduleForm schedule={schedule} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function ScheduleForm({ schedule, onDone }: { schedule?: Schedule; onDone: () => void }) {
  const save = useSaveSchedule(schedule && { id: schedule.id, version: schedule.version });
  const templates = useTemplates({ channelId: null, messageType: null });
  const dialog = useFormDialog(scheduleFormSchema, {
    defaultValues: formDefaults(schedule),
    save: (values) => save.mutateAsync(toScheduleInput(values, schedule)),
    onSaved: onDone,
    serverFields: SERVER_FIELDS,
    failureMessage: schedule ? 'Failed to save schedule' : 'Failed to create schedule',
    successMessage: ({ name }) => `Schedule '${name}' ${schedule ? 'saved' : 'created'}`,
  });
  const { register, control } = dialog.form;
  const { errors } = dialog.form.formState;
  const values = useWatch({ control }) as ScheduleFormValues;
  const recurrence = checkedRecurrence(values);

  return (
    <DialogForm
      dialog={dialog}
      onCancel={onDone}
      submitLabel={schedule ? 'Save Schedule' : 'Create Schedule'}
    >
      <Field label={<RequiredLabel>Name</RequiredLabel>} error={errors.name?.message}>
        <Input autoComplete="off" aria-required {...register('name')} />
      </Field>
      <Field label={<RequiredLabel>Template</RequiredLabel>} error={errors.template_id?.message}>
        <Select aria-required {...register('template_id')}>
          <option value="">Choose a template</option>
          {(templates.data ?? []).map((template) => (
            <option key={template.id} value={String(template.id)}>
              {template.template_name}
            </option>
          ))}
        </Select>
      </Field>

      <fieldset className="space-y-3 rounded-md border p-3">
        <legend className="px-1 text-sm font-medium">Recurrence</legend>
        <Field label="Repeat">
          <Select {...register('kind')}>
            {RECURRENCE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </Select>
        </Field>
        {values.kind === 'weekly' && (
          <Field label="Day of the week">
            <Select {...register('weekday')}>
              {WEEKDAYS.map((day) => (
                <option key={day} value={day}>
                  {capitalised(day)}
                </option>
              ))}
            </Select>
          </Field>
        )}
        {(values.kind === 'daily' || values.kind === 'weekly') && (
          <Field label="Time" error={errors.time?.message} hint="24-hour time in the schedule's time zone">
            <Input type="time" {...register('time')} />
          </Field>
        )}
        {values.kind === 'every' && (
          <Field label="Hours" error={errors.hours?.message} hint="Runs start at midnight in the time zone">
            <Select {...register('hours')}>
              {SCHEDULE_EVERY_HOURS.map((hours) => (
                <option key={hours} value={String(hours)}>
                  {hours === 1 ? 'Every hour' : `Every ${hours} hours`}
                </option>
              ))}
            </Select>
          </Field>
        )}
        {values.kind === 'cron' && (
          <Field
            label="Cron expression"
            error={errors.cron?.message}
            hint="minute hour day-of-month month day-of-week, such as 0 9 * * 1-5"
          >
            <Input autoComplete="off" spellCheck={false} className="font-mono" {...register('cron')} />
          </Field>
        )}
        <Field label="Time zone" error={errors.timezone?.message}>
          <TimeZoneSelect {...register('timezone')} />
        </Field>
        <RunPreview recurrence={recurrence} timezone={values.timezone} />
      </fieldset>

      <Field label="Data" hint="Fixed JSON, or values Lumi reads when the schedule runs">
        <Select {...register('data_source')}>
          {SCHEDULE_DATA_SOURCES.map((source) => (
            <option key={source} value={source}>
              {SCHEDULE_DATA_SOURCE_LABELS[source]}
            </option>
          ))}
        </Select>
      </Field>
      {values.data_source === 'fixed' && (
        <Field label="JSON data" error={errors.data_text?.message}>
          <Textarea rows={4} spellCheck={false} className="font-mono" {...register('data_text')} />
        </Field>
      )}
      <Field
        label="Stop after (runs)"
        error={errors.max_runs?.message}
        hint="Leave empty to run until paused"
      >
        <Input inputMode="numeric" autoComplete="off" {...register('max_runs')} />
      </Field>
      <Field
        label="End on"
        error={errors.ends_at?.message}
        hint="Your local time; no run after it. Leave empty to run until paused"
      >
        <Input type="datetime-local" {...register('ends_at')} />
      </Field>
      <FormCheckbox control={control} name="enabled" label="Enabled" />
    </DialogForm>
  );
}

/**
 * The next five run times, as the server works them out, shown in the schedule's time zone. While the
 * answer for a changed recurrence loads, the previous runs stay, dimmed and marked busy, so they are not
 * read as the new recurrence's.
 */
function RunPreview({
  recurrence,
  timezone,
}: {
  recurrence: ReturnType<typeof checkedRecurrence>;
  timezone: string;
}) {
  const preview = useSchedulePreview(recurrence, timezone);
  const stale = preview.isPlaceholderData;
  return (
    <section
      aria-label="Next runs"
      aria-live="polite"
      aria-busy={stale}
      className="rounded-md bg-muted p-3 text-sm"
    >
      <h3 className="mb-1 font-medium">Next runs{recurrence ? `: ${describeRecurrence(recurrence)}` : ''}</h3>
      {!recurrence ? (
        <p className="text-muted-foreground">Complete the recurrence to see its next runs.</p>
      ) : preview.isError ? (
        <p className="text-destructive">
          {errorMessage(preview.error, 'The next runs could not be worked out')}
        </p>
      ) : (
        <ol className={cn('list-inside list-decimal space-y-0.5', stale && 'opacity-50')}>
          {(preview.data?.runs ?? []).map((run) => (
            <li key={run}>
              <time dateTime={run}>{formatInZone(run, timezone)}</time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
