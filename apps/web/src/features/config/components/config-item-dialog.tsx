import { zodResolver } from '@hookform/resolvers/zod';
import type { ConfigDomain, ConfigItem, ConfigItemValues } from '@lumi/contract';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyFieldErrors } from '@/lib/form-errors';
import { conflictingItem } from '../api/config-errors';
import { useCreateConfigItem } from '../api/create-config-item';
import { useUpdateConfigItem } from '../api/update-config-item';
import { configFormSchema, formValuesOf, type ConfigFormValues } from '../lib/config-form';
import type { ContentMode } from '../lib/content';
import { DOMAIN_LABELS } from '../lib/domains';
import { ConflictView, type Conflict } from './conflict-view';
import { ContentField } from './content-field';

const SERVER_FIELDS = ['name', 'description', 'content', 'priority', 'tags', 'is_active'] as const;

interface ConfigItemDialogProps {
  domain: ConfigDomain;
  /** Edit mode with an item, add mode without (spec section 4). */
  item?: ConfigItem;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The add/edit modal; a save that meets a newer version turns into the conflict view. */
export function ConfigItemDialog({ domain, item, open, onOpenChange }: ConfigItemDialogProps) {
  const createItem = useCreateConfigItem();
  const updateItem = useUpdateConfigItem();
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  // The version the form's values come from; 'Reload their version' and 'Overwrite' move it on.
  const [version, setVersion] = useState(item?.version);
  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    trigger,
    formState: { errors },
  } = useForm<ConfigFormValues, unknown, ConfigItemValues>({
    resolver: zodResolver(configFormSchema),
    defaultValues: formValuesOf(item),
  });
  const mode = useWatch({ control, name: 'mode' });
  const pending = createItem.isPending || updateItem.isPending;

  // A content message may no longer hold in the other mode, so it is checked again.
  function changeMode(next: ContentMode) {
    setValue('mode', next);
    if (errors.content) void trigger('content');
  }

  async function save(input: ConfigItemValues, baseVersion: number | undefined) {
    setFailure(null);
    try {
      if (item && baseVersion !== undefined) {
        await updateItem.mutateAsync({ domain, id: item.id, input: { ...input, version: baseVersion } });
      } else {
        await createItem.mutateAsync({ domain, input });
      }
      onOpenChange(false);
    } catch (error) {
      const theirs = conflictingItem(error);
      setConflict(theirs ? { detail: errorMessage(error, ''), theirs, mine: input } : null);
      if (theirs) return;
      // The other 409: the name is taken in this domain.
      if (error instanceof ApiError && error.status === 409) setError('name', { message: error.detail });
      else if (!applyFieldErrors(error, SERVER_FIELDS, setError)) {
        setFailure(
          errorMessage(error, item ? 'Failed to update configuration' : 'Failed to create configuration'),
        );
      }
    }
  }

  function reloadTheirs({ theirs }: Conflict) {
    reset(formValuesOf(theirs));
    setVersion(theirs.version);
    setConflict(null);
  }

  function overwrite({ theirs, mine }: Conflict) {
    setVersion(theirs.version);
    void save(mine, theirs.version);
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
          pending={pending}
          onReload={() => reloadTheirs(conflict)}
          onOverwrite={() => overwrite(conflict)}
        />
      ) : (
        <form noValidate onSubmit={handleSubmit((input) => save(input, version))} className="space-y-4">
          {failure && <Alert variant="error">{failure}</Alert>}
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
          <Controller
            control={control}
            name="is_active"
            render={({ field }) => (
              <Checkbox
                checked={field.value}
                onCheckedChange={field.onChange}
                label="Active"
                description="Only active items reach the bot"
              />
            )}
          />
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {item ? (pending ? 'Saving...' : 'Save') : pending ? 'Creating...' : 'Create'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
