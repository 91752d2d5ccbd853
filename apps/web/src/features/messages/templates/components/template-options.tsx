import type { TemplateValues } from '@lumi/contract';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import type { TemplateFormValues } from '../lib/template-form';

type OptionName =
  'enabled' | 'disable_web_preview' | 'disable_notification' | 'allow_pinning' | 'split_long_messages';

const OPTIONS: ReadonlyArray<{ name: OptionName; label: string; description?: string }> = [
  { name: 'enabled', label: 'Enabled' },
  { name: 'disable_web_preview', label: 'Disable Web Preview' },
  { name: 'disable_notification', label: 'Disable Notification' },
  { name: 'allow_pinning', label: 'Allow Pinning' },
  {
    name: 'split_long_messages',
    label: 'Split Long Messages',
    description: 'Over 4,096 characters: sent as several messages instead of refused',
  },
];

/** The editor's checkboxes; Pin by Default can only be on while Allow Pinning is (spec section 4). */
export function TemplateOptions() {
  const { control, setValue, formState } = useFormContext<TemplateFormValues, unknown, TemplateValues>();
  const allowPinning = useWatch({ control, name: 'allow_pinning' }) ?? false;

  return (
    <fieldset className="space-y-2">
      <legend className="mb-2 text-sm font-medium">Options</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {OPTIONS.map(({ name, label, description }) => (
          <Controller
            key={name}
            control={control}
            name={name}
            render={({ field }) => (
              <Checkbox
                label={label}
                description={description}
                checked={field.value ?? false}
                onCheckedChange={(checked) => {
                  field.onChange(checked);
                  if (name === 'allow_pinning' && !checked) {
                    setValue('pin_by_default', false, { shouldDirty: true, shouldValidate: true });
                  }
                }}
              />
            )}
          />
        ))}
        <Controller
          control={control}
          name="pin_by_default"
          render={({ field }) => (
            <Checkbox
              label="Pin by Default"
              description={allowPinning ? undefined : 'Turn on Allow Pinning first'}
              checked={field.value ?? false}
              disabled={!allowPinning}
              onCheckedChange={field.onChange}
            />
          )}
        />
      </div>
      {formState.errors.pin_by_default && (
        <p className="text-xs font-medium text-destructive">{formState.errors.pin_by_default.message}</p>
      )}
    </fieldset>
  );
}
