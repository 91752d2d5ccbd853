import { useFormDialog, type FormDialogOptions, type FormSchema } from '@/lib/use-form-dialog';
import { numberFieldMessage } from '../lib/number-form';

/** The form of a setting's dialog: its number inputs get readable messages, and a save closes it. */
export function useSettingForm<S extends FormSchema>(
  schema: S,
  onOpenChange: (open: boolean) => void,
  options: Omit<FormDialogOptions<S>, 'schemaOptions' | 'onSaved'>,
) {
  return useFormDialog(schema, {
    ...options,
    schemaOptions: { error: numberFieldMessage },
    onSaved: () => onOpenChange(false),
  });
}
