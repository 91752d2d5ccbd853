import { WEEKDAYS, type Silence } from '@lumi/contract';
import { useController, useWatch } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import { CheckboxGroup } from '@/components/ui/checkbox-group';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useRules } from '../api/rules';
import { useCreateSilence, useUpdateSilence } from '../api/silences';
import {
  silenceFormDefaults,
  silenceFormOf,
  silenceFormSchema,
  toSilenceInput,
  type ScopeValue,
} from '../lib/silences';
import { RequiredLabel } from '@/components/ui/required-label';
import { TimeZoneSelect } from '@/components/ui/time-zone-select';
import { capitalised } from '@/lib/format';

interface SilenceDialogProps {
  /** The silence to edit (a later end extends it), or none to create one. */
  silence?: Silence;
  /** A new silence's scope, when opened from a rule. */
  scope?: ScopeValue;
  onClose: () => void;
}

/** Mute alerts: once until a time, or a maintenance window that recurs on weekdays. */
export function SilenceDialog({ silence, scope, onClose }: SilenceDialogProps) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={silence ? 'Edit Silence' : 'New Silence'}>
      <SilenceForm silence={silence} scope={scope} onDone={onClose} />
    </Dialog>
  );
}

function SilenceForm({
  silence,
  scope,
  onDone,
}: Omit<SilenceDialogProps, 'onClose'> & { onDone: () => void }) {
  const create = useCreateSilence();
  const update = useUpdateSilence();
  const rules = useRules();
  const dialog = useFormDialog(silenceFormSchema, {
    defaultValues: silence ? silenceFormOf(silence) : silenceFormDefaults(scope),
    save: (values) =>
      silence
        ? update.mutateAsync({ id: silence.id, input: toSilenceInput(values) })
        : create.mutateAsync(toSilenceInput(values)),
    onSaved: onDone,
    serverFields: {
      rule_id: 'scope',
      severity: 'scope',
      starts_at: 'starts_at',
      ends_at: 'ends_at',
      weekdays: 'weekdays',
      start_time: 'start_time',
      duration_minutes: 'duration_minutes',
      timezone: 'timezone',
      comment: 'comment',
    },
    failureMessage: silence ? 'Failed to save the silence' : 'Failed to create the silence',
    successMessage: silence ? 'Silence saved' : 'Silence created',
  });
  const { register, control } = dialog.form;
  const { errors } = dialog.form.formState;
  const kind = useWatch({ control, name: 'kind' });
  const days = useController({ control, name: 'weekdays' }).field;
  const chosenDays = days.value ?? [];

  return (
    <DialogForm dialog={dialog} onCancel={onDone} submitLabel={silence ? 'Save Silence' : 'Create Silence'}>
      <Field label="Mute" error={errors.scope?.message}>
        <Select {...register('scope')}>
          <option value="all">All rules</option>
          <option value="severity:critical">Every critical rule</option>
          <option value="severity:warning">Every warning rule</option>
          {(rules.data?.rules ?? []).map((rule) => (
            <option key={rule.id} value={`rule:${rule.id}`}>
              Rule: {rule.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Kind">
        <Select {...register('kind')}>
          <option value="once">Once, until a time</option>
          <option value="recurring">Maintenance window, every week</option>
        </Select>
      </Field>
      {kind === 'once' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Starts" error={errors.starts_at?.message} hint="Your local time; empty starts now">
            <Input type="datetime-local" {...register('starts_at')} />
          </Field>
          <Field
            label={<RequiredLabel>Until</RequiredLabel>}
            error={errors.ends_at?.message}
            hint="Your local time"
          >
            <Input type="datetime-local" aria-required {...register('ends_at')} />
          </Field>
        </div>
      ) : (
        <>
          <CheckboxGroup legend="On" error={errors.weekdays?.message}>
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {WEEKDAYS.map((day) => (
                <Checkbox
                  key={day}
                  checked={chosenDays.includes(day)}
                  onCheckedChange={(checked) =>
                    days.onChange(
                      checked ? [...chosenDays, day] : chosenDays.filter((chosen) => chosen !== day),
                    )
                  }
                  label={capitalised(day)}
                />
              ))}
            </div>
          </CheckboxGroup>
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label="From" error={errors.start_time?.message}>
              <Input type="time" {...register('start_time')} />
            </Field>
            <Field label="For (min)" error={errors.duration_minutes?.message}>
              <Input
                inputMode="numeric"
                autoComplete="off"
                {...register('duration_minutes', { valueAsNumber: true })}
              />
            </Field>
            <Field label="Time zone" error={errors.timezone?.message}>
              <TimeZoneSelect {...register('timezone')} />
            </Field>
          </div>
        </>
      )}
      <Field
        label={<RequiredLabel>Comment</RequiredLabel>}
        error={errors.comment?.message}
        hint="Why the alerts are muted"
      >
        <Textarea rows={2} aria-required {...register('comment')} />
      </Field>
    </DialogForm>
  );
}
