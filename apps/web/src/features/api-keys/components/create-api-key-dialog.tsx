import { API_KEY_SCOPES, type ApiKeyScope } from '@lumi/contract';
import { Controller } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Checkbox } from '@/components/ui/checkbox';
import { CheckboxGroup } from '@/components/ui/checkbox-group';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FormActions } from '@/components/ui/form-actions';
import { Input } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useCreateApiKey } from '../api/create-api-key';
import { apiKeyFormSchema, SCOPE_DESCRIPTIONS, toApiKeyInput } from '../lib/api-key-form';
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
  return (
    <CheckboxGroup legend="Scopes" error={error}>
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
    </CheckboxGroup>
  );
}

/** Create API Key: name, scopes and an optional expiry; then the key, shown once. */
export function CreateApiKeyDialog({ onOpenChange }: { onOpenChange: (open: boolean) => void }) {
  const create = useCreateApiKey();
  // The new key is shown from the mutation's answer, so a save leaves the dialog open.
  const { form, onSubmit, failure, pending } = useFormDialog({
    schema: apiKeyFormSchema(),
    defaultValues: { name: '', scopes: ['ingest:write'], expires_on: '' },
    save: (values) => create.mutateAsync(toApiKeyInput(values)),
    failureMessage: 'Failed to create API key',
  });
  const {
    control,
    register,
    formState: { errors },
  } = form;

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
          {failure && <Alert variant="error">{failure}</Alert>}
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
          <FormActions
            onCancel={() => onOpenChange(false)}
            pending={pending}
            submitLabel="Create Key"
            pendingLabel="Creating..."
          />
        </form>
      )}
    </Dialog>
  );
}
