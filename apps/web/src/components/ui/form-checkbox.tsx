import type { ReactNode } from 'react';
import { useController, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { Checkbox } from './checkbox';

interface FormCheckboxProps<T extends FieldValues, TOutput> {
  control: Control<T, unknown, TOutput>;
  name: FieldPathByValue<T, boolean | undefined>;
  label: ReactNode;
  description?: ReactNode;
}

/** A checkbox bound to a form's on/off field; a field not set yet shows as on, the schemas' default. */
export function FormCheckbox<T extends FieldValues, TOutput>({
  control,
  name,
  label,
  description,
}: FormCheckboxProps<T, TOutput>) {
  const { field } = useController({ control, name });
  return (
    <Checkbox
      checked={field.value !== false}
      onCheckedChange={field.onChange}
      label={label}
      description={description}
    />
  );
}
