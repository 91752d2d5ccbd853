import type { ConfigDomain, ConfigItem, ConfigItemValues } from '@lumi/contract';
import { useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input, Textarea } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useFormDialog } from '@/lib/use-form-dialog';
import { conflictingItem } from '../api/config-errors';
import { useCreateConfigItem } from '../api/create-config-item';
import { useUpdateConfigItem } from '../api/update-config-item';
import { configFormSchema, formValuesOf, newFormValues } from '../lib/config-form';
import type { ContentMode } from '../lib/content';
import { DOMAIN_LABELS } from '../lib/domains';
import { ConflictView, type Conflict } from './conflict-view';
import { ContentField } from './content-field';

const SERVER_FIELDS = ['name', 'description', 'content', 'priority', 'tags', 'is_active'] as const;

/** Edit mode with an item, add mode without (spec section 4); a new item's content starts in `newItemMode`. */
type ConfigItemDialogProps = {
  domain: ConfigDomain;
  open: boolean;
  onOpenChange: (open: boolean) => void;
} & ({ item: ConfigItem; newItemMode?: never } | { item?: never; newItemMode: ContentMode });

/** The add/edit modal; a save that meets a newer version turns into the conflict view. */
export function ConfigItemDialog({ domain, item, newItemMode, open, onOpenChange }: ConfigItemDialogProps) {
  const close = () => onOpenChange(false);
  const createItem = useCreateConfigItem();
  const updateItem = useUpdateConfigItem();
  const [conflict, setConflict] = useState<Conflict | null>(null);
  // The version the form's values come from; 'Reload their version' and 'Overwrite' move it on.
  const [version, setVersion] = useState(item?.version);

  function send(input: ConfigItemValues, baseVersion: number | undefined) {
    return item && baseVersion !== undefined
      ? updateItem.mutateAsync({ domain, id: item.id, input: { ...input, version: baseVersion } })
      : createItem.mutateAsync({ domain, input });
  }

  const dialog = useFormDialog(configFormSchema, {
    defaultValues: item ? formValuesOf(item) : newFormValues(newItemMode),
    save: (input) => send(input, version),
    onSaved: close,
    successMessage: ({ name }) => (item ? `'${name}' saved` : `'${name}' created`),
    serverFields: SERVER_FIELDS,
    failureMessage: item ? 'Failed to update configuration' : 'Failed to create configuration',
    onError: (error, input) => {
      const theirs = conflictingItem(error);
      setConflict(theirs ? { detail: errorMessage(error, ''), theirs, mine: input } : null);
      if (theirs) return true;
      // The other 409: the name is taken in this domain.
      if (!(error instanceof ApiError && error.status === 409)) return false;
      dialog.form.setError('name', { message: error.detail });
      return true;
    },
  });
  const { control, register, setValue, trigger } = dialog.form;
  const { errors } = dialog.form.formState;
  const mode = useWatch({ control, name: 'mode' });

  // A content message may no longer hold in the other mode, so it is checked again.
  function changeMode(next: ContentMode) {
    setValue('mode', next);
    if (errors.content) void trigger('content');
  }

  function reloadTheirs({ theirs }: Conflict) {
    dialog.reset(formValuesOf(theirs));
    setVersion(theirs.version);
    setConflict(null);
  }

  function overwrite({ theirs, mine }: Conflict) {
    setVersion(theirs.version);
    void dialog.save(mine, (input) => send(input, theirs.version));
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={item ? `Edit ${item.name}` : 'Add Item'}
      description={`${DOMAIN_LABELS[domain]}${version ? ` · version ${version}` : ''}`}
      className={conflict ? 'md:max-w-4xl' : 'md:max-w-2xl'}
    >
      {conflict ? (
        <ConflictView
          {...conflict}
          pending={dialog.pending}
          onReload={() => reloadTheirs(conflict)}
          onOverwrite={() => overwrite(conflict)}
        />
      ) : (
        <DialogForm dialog={dialog} onCancel={close} submitLabel={item ? 'Save' : 'Create'}>
          <Field label="Name" error={errors.name?.message}>
            <Input autoComplete="off" {...register('name')} />
          </Field>
          <Field label="Description" error={errors.description?.message}>
            <Textarea rows={2} {...register('description')} />
          </Field>
          <Controller
            control={control}
            name="content"
            render={({ field, fieldState }) => (
              <ContentField
                mode={mode}
                onModeChange={changeMode}
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error?.message}
              />
            )}
          />
          <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
            <Field label="Priority" hint="1 to 10" error={errors.priority?.message}>
              <Input
                type="number"
                min={1}
                max={10}
                step={1}
                {...register('priority', { valueAsNumber: true })}
              />
            </Field>
            <Field label="Tags" hint="Separate tags with commas" error={errors.tags?.message}>
              <Input autoComplete="off" placeholder="e.g. friendly, morning" {...register('tags')} />
            </Field>
          </div>
          <FormCheckbox
            control={control}
            name="is_active"
            label="Active"
            description="Only active items reach the bot"
          />
        </DialogForm>
      )}
    </Dialog>
  );
}
