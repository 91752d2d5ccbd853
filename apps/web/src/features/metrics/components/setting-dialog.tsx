import type { ReactNode } from 'react';
import type { FieldPathByValue, FieldValues } from 'react-hook-form';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import type { FormDialogState } from '@/lib/use-form-dialog';

/** The words of a setting's dialog and the field of the name it is stored under. */
export interface SettingText<T extends FieldValues> {
  /** What is set, in the edit title and on the save button: 'Price', 'Budget'. */
  noun: string;
  addTitle: string;
  description: string;
  /** The model or provider; the setting is stored under it, so it is typed when adding and fixed after. */
  key: { name: FieldPathByValue<T, string>; label: string; hint: string };
}

interface SettingDialogProps<T extends FieldValues, TOutput> {
  dialog: FormDialogState<T, TOutput>;
  onOpenChange: (open: boolean) => void;
  text: SettingText<T>;
  /** The name of the setting being changed; none when adding one. */
  editing?: string;
  children: ReactNode;
}

/** Add or change a setting stored under a name: a model's price, a provider's budget. */
export function SettingDialog<T extends FieldValues, TOutput>({
  dialog,
  onOpenChange,
  text,
  editing,
  children,
}: SettingDialogProps<T, TOutput>) {
  const { register, getFieldState, formState } = dialog.form;
  const adding = editing === undefined;
  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title={adding ? text.addTitle : `Edit ${text.noun}: ${editing}`}
      description={text.description}
    >
      <DialogForm dialog={dialog} onCancel={() => onOpenChange(false)} submitLabel={`Save ${text.noun}`}>
        <Field
          label={text.key.label}
          error={getFieldState(text.key.name, formState).error?.message}
          hint={adding ? text.key.hint : undefined}
        >
          <Input autoComplete="off" readOnly={!adding} {...register(text.key.name)} />
        </Field>
        {children}
      </DialogForm>
    </Dialog>
  );
}
