import { API_KEY_SCOPE_DESCRIPTIONS, API_KEY_SCOPES } from '@lumi/contract';
import { useController } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import { CheckboxGroup } from '@/components/ui/checkbox-group';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useCreateApiKey } from '../api/create-api-key';
import { apiKeyFormSchema, toApiKeyInput, type ApiKeyFormInput } from '../lib/api-key-form';
import { NewApiKey } from './new-api-key';

/** The browser's today as YYYY-MM-DD, the earliest expiry day offered. */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

function ScopeCheckboxes() {
  const { field, fieldState } = useController<Pick<ApiKeyFormInput, 'scopes'>, 'scopes'>({ name: 'scopes' });
  const value = field.value;
  return (
    <CheckboxGroup legend="Scopes" error={fieldState.error?.message}>
      {API_KEY_SCOPES.map((scope) => (
        <Checkbox
          key={scope}
          label={<span className="font-mono">{scope}</span>}
          description={API_KEY_SCOPE_DESCRIPTIONS[scope]}
          checked={value.includes(scope)}
          onCheckedChange={(checked) =>
            field.onChange(checked ? [...value, scope] : value.filter((s) => s !== scope))
          }
        />
      ))}
    </CheckboxGroup>
  );
}

/** Create API Key: name, scopes and an optional expiry; then the key, shown once. */
export function CreateApiKeyDialog({ onOpenChange }: { onOpenChange: (open: boolean) => void }) {
  const close = () => onOpenChange(false);
  const create = useCreateApiKey();
  // The new key is shown from the mutation's answer, so a save leaves the dialog open.
  const dialog = useFormDialog(apiKeyFormSchema(), {
    // No scope is pre-ticked: a key gets only what its creator chose on purpose (least privilege).
    defaultValues: { name: '', scopes: [], expires_on: '' },
    save: (values) => create.mutateAsync(toApiKeyInput(values)),
    failureMessage: 'Failed to create API key',
  });
  const { register } = dialog.form;
  const { errors } = dialog.form.formState;

  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title={create.data ? 'API Key Created' : 'Create API Key'}
      description={create.data ? undefined : 'The bot sends the key as "Authorization: Bearer <key>".'}
    >
      {create.data ? (
        <NewApiKey created={create.data} onDone={close} />
      ) : (
        <DialogForm dialog={dialog} onCancel={close} submitLabel="Create Key">
          <Field label="Name" error={errors.name?.message} hint="Where the key is used, e.g. production-bot">
            <Input autoComplete="off" {...register('name')} />
          </Field>
          <ScopeCheckboxes />
          <Field
            label="Expires on (optional)"
            error={errors.expires_on?.message}
            hint="The key works until the end of this day. Leave empty for a key that does not expire."
          >
            <Input type="date" min={today()} {...register('expires_on')} />
          </Field>
        </DialogForm>
      )}
    </Dialog>
  );
}
