import { ACCESS_ACTIONS, ACCESS_SUBJECT_KINDS } from '@lumi/contract';
import { useWatch } from 'react-hook-form';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { RequiredLabel } from '@/components/ui/required-label';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useCreateAccessRule } from '../api/create-access-rule';
import {
  ACCESS_RULE_FORM_FIELDS,
  NEW_ACCESS_RULE,
  accessRuleFormSchema,
  toAccessRuleBody,
} from '../lib/access-rule-form';

const ACTION_OPTIONS = {
  ban: 'Ban: deny every call',
  allow: 'Allow: no limit applies (a ban still wins)',
} as const;
const KIND_OPTIONS = { chat: 'Chat', user: 'User' } as const;
const ID_FIELDS = {
  chat: { label: 'Chat id', placeholder: '-1001234567890' },
  user: { label: 'User id', placeholder: '123456789' },
} as const;

/** Ban a chat or user, or put it on the allowlist, with a reason and an optional expiry. */
export function AccessRuleDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Add Ban or Allowlist Entry"
      description="A chat or user has at most one entry: delete it to change it, or add a new one once it has expired."
    >
      <AccessRuleForm onDone={onClose} />
    </Dialog>
  );
}

function AccessRuleForm({ onDone }: { onDone: () => void }) {
  const create = useCreateAccessRule();
  const dialog = useFormDialog(accessRuleFormSchema(), {
    defaultValues: NEW_ACCESS_RULE,
    save: (values) => create.mutateAsync(toAccessRuleBody(values)),
    onSaved: onDone,
    serverFields: ACCESS_RULE_FORM_FIELDS,
    failureMessage: 'Failed to create the entry',
    successMessage: ({ action }) => (action === 'ban' ? 'Ban created' : 'Allowlist entry created'),
  });
  const { register, control } = dialog.form;
  const { errors } = dialog.form.formState;
  const kind = useWatch({ control, name: 'subject_kind' });
  const idField = ID_FIELDS[kind];

  return (
    <DialogForm dialog={dialog} onCancel={onDone} submitLabel="Create Entry">
      <Field label="Action" error={errors.action?.message}>
        <Select {...register('action')}>
          {ACCESS_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {ACTION_OPTIONS[action]}
            </option>
          ))}
        </Select>
      </Field>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Chat or user" error={errors.subject_kind?.message}>
          <Select {...register('subject_kind')}>
            {ACCESS_SUBJECT_KINDS.map((option) => (
              <option key={option} value={option}>
                {KIND_OPTIONS[option]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={<RequiredLabel>{idField.label}</RequiredLabel>} error={errors.subject?.message}>
          <Input
            autoComplete="off"
            inputMode="numeric"
            aria-required
            placeholder={idField.placeholder}
            {...register('subject')}
          />
        </Field>
      </div>
      <Field
        label={<RequiredLabel>Reason</RequiredLabel>}
        error={errors.reason?.message}
        hint="So the next operator knows why"
      >
        <Textarea rows={2} dir="auto" aria-required {...register('reason')} />
      </Field>
      <Field
        label="Expires (optional)"
        error={errors.expires_at?.message}
        hint="Your local time; empty keeps it until it is deleted"
      >
        <Input type="datetime-local" {...register('expires_at')} />
      </Field>
    </DialogForm>
  );
}
