import { zodResolver } from '@hookform/resolvers/zod';
import { API_KEY_SCOPES, type ApiKeyScope } from '@lumi/contract';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { useCreateApiKey } from '../api/create-api-key';
import {
  apiKeyFormSchema,
  SCOPE_DESCRIPTIONS,
  toApiKeyInput,
  type ApiKeyFormInput,
  type ApiKeyFormValues,
} from '../lib/api-key-form';
import { NewApiKey } from './new-api-key';

/** The browser's today as YYYY-MM-DD, the earliest expiry day offered. */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

function ScopeCheckboxes({
  value,
  onChange,
  error,
}: {
  value: ApiKeyScope[];
  onChange: (scopes: ApiKeyScope[]) => void;
  error?: string;
}) {
  const errorId = useId();
  return (
    <fieldset className="space-y-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1.5 text-sm font-medium">Scopes</legend>
      {API_KEY_SCOPES.map((scope) => (
        <Checkbox
          key={scope}
          label={<span className="font-mono">{scope}</span>}
          description={SCOPE_DESCRIPTIONS[scope]}
          checked={value.includes(scope)}
          onCheckedChange={(checked) =>
            onChange(checked ? [...value, scope] : value.filter((s) => s !== scope))
          }
        />
      ))}
      {error && (
        <p id={errorId} className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** Create API Key: name, scopes and an optional expiry; then the key, shown once. */
export function CreateApiKeyDialog({ onOpenChange }: { onOpenChange: (open: boolean) => void }) {
  const create = useCreateApiKey();
  const {
    control,
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ApiKeyFormInput, unknown, ApiKeyFormValues>({
    resolver: zodResolver(apiKeyFormSchema()),
    defaultValues: { name: '', scopes: ['ingest:write'], expires_on: '' },
  });

  const onSubmit = handleSubmit((values) => create.mutate(toApiKeyInput(values)));

  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title={create.data ? 'API Key Created' : 'Create API Key'}
      description={create.data ? undefined : 'The bot sends the key as "Authorization: Bearer <key>".'}
    >
      {create.data ? (
        <NewApiKey created={create.data} onDone={() => onOpenChange(false)} />
      ) : (
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          {create.error && (
            <Alert variant="error">{errorMessage(create.error, 'Failed to create API key')}</Alert>
          )}
          <Field label="Name" error={errors.name?.message} hint="Where the key is used, e.g. production-bot">
            <Input autoComplete="off" {...register('name')} />
          </Field>
          <Controller
            control={control}
            name="scopes"
            render={({ field, fieldState }) => (
              <ScopeCheckboxes
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error?.message}
              />
            )}
          />
          <Field
            label="Expires on (optional)"
            error={errors.expires_on?.message}
            hint="The key works until the end of this day. Leave empty for a key that does not expire."
          >
            <Input type="date" min={today()} {...register('expires_on')} />
          </Field>
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create Key'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
