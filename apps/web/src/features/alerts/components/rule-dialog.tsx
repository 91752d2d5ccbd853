import { ALERT_NO_DATA, type AlertNoData, type AlertRule } from '@lumi/contract';
import { useController, type Control } from 'react-hook-form';
import { CheckboxGroup } from '@/components/ui/checkbox-group';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input, Select } from '@/components/ui/input';
import { useFormDialog, type FormDialogState } from '@/lib/use-form-dialog';
import { useContactPoints } from '../api/contact-points';
import { useSaveRule } from '../api/rules';
import {
  applyRuleFieldErrors,
  ruleFormDefaults,
  ruleFormSchema,
  type RuleFormOutput,
  type RuleFormValues,
} from '../lib/rule-form';
import { SeverityOptions } from './alert-badges';
import { ConditionFields } from './condition-fields';
import { RequiredLabel } from '@/components/ui/required-label';
import { RulePreview } from './rule-preview';

const NO_DATA_LABELS: Record<AlertNoData, string> = {
  ok: 'Count as OK',
  alerting: 'Count as holding (alert)',
  keep: 'Keep the last state',
};

interface RuleDialogProps {
  /** The rule to edit, or none to create one. */
  rule?: AlertRule;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Create or edit an alert rule, with a live line of what its condition evaluates to now. */
export function RuleDialog({ rule, open, onOpenChange }: RuleDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={rule ? `Edit Rule: ${rule.name}` : 'New Rule'}
      className="max-w-2xl"
    >
      {open && <RuleForm rule={rule} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function RuleForm({ rule, onDone }: { rule?: AlertRule; onDone: () => void }) {
  const save = useSaveRule();
  const dialog: FormDialogState<RuleFormValues, RuleFormOutput> = useFormDialog(ruleFormSchema, {
    defaultValues: ruleFormDefaults(rule),
    save: (values) => save.mutateAsync({ id: rule?.id, input: values }),
    onSaved: onDone,
    onError: (error) => applyRuleFieldErrors(error, dialog.form.setError),
    failureMessage: rule ? 'Failed to save the rule' : 'Failed to create the rule',
    successMessage: ({ name }) => `Rule '${name}' ${rule ? 'saved' : 'created'}`,
  });
  const { register, control } = dialog.form;
  const { errors } = dialog.form.formState;

  return (
    <DialogForm dialog={dialog} onCancel={onDone} submitLabel={rule ? 'Save Rule' : 'Create Rule'}>
      <Field label={<RequiredLabel>Name</RequiredLabel>} error={errors.name?.message}>
        <Input autoComplete="off" aria-required {...register('name')} />
      </Field>
      <fieldset className="space-y-3 rounded-md border p-3">
        <legend className="px-1 text-sm font-medium">When</legend>
        <ConditionFields />
        <RulePreview />
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Severity" error={errors.severity?.message}>
          <Select {...register('severity')}>
            <SeverityOptions />
          </Select>
        </Field>
        <Field
          label="Pending period (s)"
          error={errors.pending_seconds?.message}
          hint="How long the condition must hold before the rule fires; 0 fires at once"
        >
          <Input
            inputMode="numeric"
            autoComplete="off"
            {...register('pending_seconds', { valueAsNumber: true })}
          />
        </Field>
        <Field label="When there is no data" error={errors.no_data?.message}>
          <Select {...register('no_data')}>
            {ALERT_NO_DATA.map((choice) => (
              <option key={choice} value={choice}>
                {NO_DATA_LABELS[choice]}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          label="Notify again every (min)"
          error={errors.renotify_minutes?.message}
          hint="While it fires; 0 never"
        >
          <Input
            inputMode="numeric"
            autoComplete="off"
            {...register('renotify_minutes', { valueAsNumber: true })}
          />
        </Field>
      </div>
      <ContactPointChoice control={control} error={errors.contact_point_ids?.message} />
      <FormCheckbox control={control} name="notify_on_resolve" label="Notify when it resolves" />
      <FormCheckbox control={control} name="enabled" label="Enabled" />
    </DialogForm>
  );
}

/** The contact points the rule tells, as checkboxes. */
function ContactPointChoice({ control, error }: { control: Control<RuleFormValues>; error?: string }) {
  const contactPoints = useContactPoints();
  const { field } = useController({ control, name: 'contact_point_ids' });
  const chosen = field.value ?? [];
  const points = contactPoints.data?.contact_points ?? [];
  return (
    <CheckboxGroup legend="Contact points" error={error}>
      {contactPoints.isPending ? (
        <p className="text-sm text-muted-foreground">Loading contact points…</p>
      ) : points.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No contact points yet. Add one under Contact points, then choose it here.
        </p>
      ) : (
        <div className="grid gap-2 sm:grid-cols-2">
          {points.map((point) => (
            <Checkbox
              key={point.id}
              checked={chosen.includes(point.id)}
              onCheckedChange={(checked) =>
                field.onChange(checked ? [...chosen, point.id] : chosen.filter((id) => id !== point.id))
              }
              label={point.name}
              description={point.type === 'telegram' ? 'Telegram' : 'Webhook'}
            />
          ))}
        </div>
      )}
    </CheckboxGroup>
  );
}
