import { ALERT_CONDITION_LABELS, ALERT_CONDITION_TYPES, type AlertConditionType } from '@lumi/contract';
import { useController, useFormContext, useWatch, type Path } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { CONDITION_DEFAULTS, CONDITION_FIELDS, type ConditionField } from '../lib/conditions';
import type { RuleFormValues } from '../lib/rule-form';
import { RequiredLabel } from '@/components/ui/required-label';

type ConditionErrors = Partial<Record<string, { message?: string }>> & { message?: string };

/** The condition type and the inputs of the chosen type; a new type starts from its defaults. */
export function ConditionFields() {
  const { control, register, setValue, formState } = useFormContext<RuleFormValues>();
  const type = useWatch({ control, name: 'condition.type' }) as AlertConditionType;
  const errors = formState.errors.condition as unknown as ConditionErrors | undefined;
  return (
    <>
      <Field label="Condition" error={errors?.type?.message ?? errors?.message}>
        <Select
          value={type}
          onChange={(event) => {
            const next = ALERT_CONDITION_TYPES.find((candidate) => candidate === event.target.value);
            if (next)
              setValue('condition', CONDITION_DEFAULTS[next], { shouldValidate: formState.isSubmitted });
          }}
        >
          {ALERT_CONDITION_TYPES.map((candidate) => (
            <option key={candidate} value={candidate}>
              {ALERT_CONDITION_LABELS[candidate]}
            </option>
          ))}
        </Select>
      </Field>
      {CONDITION_FIELDS[type].length > 0 && (
        <div className="grid gap-3 sm:grid-cols-2">
          {CONDITION_FIELDS[type].map((field) => (
            <ConditionInput
              key={`${type}.${field.name}`}
              field={field}
              error={errors?.[field.name]?.message}
              register={register}
            />
          ))}
        </div>
      )}
    </>
  );
}

function ConditionInput({
  field,
  error,
  register,
}: {
  field: ConditionField;
  error?: string;
  register: ReturnType<typeof useFormContext<RuleFormValues>>['register'];
}) {
  const name = `condition.${field.name}` as Path<RuleFormValues>;
  const label = (
    <>
      {field.required ? <RequiredLabel>{field.label}</RequiredLabel> : `${field.label} (optional)`}
      {field.unit && <span className="sr-only"> ({field.unit})</span>}
    </>
  );
  switch (field.kind) {
    case 'checkbox':
      return <ConditionCheckbox name={name} label={field.label} />;
    case 'window':
      return (
        <Field label={label} error={error}>
          <Select {...register(name)}>
            <option value="hour">Last hour</option>
            <option value="day">Today</option>
          </Select>
        </Field>
      );
    case 'text':
      return (
        <Field label={label} error={error} hint={field.hint}>
          <Input autoComplete="off" aria-required={field.required || undefined} {...register(name)} />
        </Field>
      );
    case 'number':
      return (
        <Field label={label} error={error} hint={field.hint}>
          <UnitInput unit={field.unit} aria-required {...register(name, { valueAsNumber: true })} />
        </Field>
      );
  }
}

/** A number input with its unit after it; the unit is part of the input's description. */
function UnitInput({ unit, ...props }: { unit?: string } & React.ComponentProps<'input'>) {
  return (
    <div className="flex items-center gap-2">
      <Input inputMode="decimal" autoComplete="off" className="min-w-0 flex-1" {...props} />
      {unit && (
        <span aria-hidden className="shrink-0 text-sm text-muted-foreground">
          {unit}
        </span>
      )}
    </div>
  );
}

function ConditionCheckbox({ name, label }: { name: Path<RuleFormValues>; label: string }) {
  const { control } = useFormContext<RuleFormValues>();
  const { field } = useController({ control, name });
  return (
    <Checkbox
      className="sm:col-span-2"
      checked={field.value === true}
      onCheckedChange={field.onChange}
      label={label}
    />
  );
}
