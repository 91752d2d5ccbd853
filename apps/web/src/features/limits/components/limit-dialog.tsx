import {
  LIMIT_METRIC_LABELS,
  LIMIT_METRICS,
  LIMIT_MODES,
  LIMIT_SCOPE_LABELS,
  LIMIT_SCOPES,
  LIMIT_WINDOW_LABELS,
  LIMIT_WINDOWS,
  type Limit,
  type LimitMetric,
  type LimitScope,
} from '@lumi/contract';
import { useWatch } from 'react-hook-form';
import { Dialog } from '@/components/ui/dialog';
import { DialogForm } from '@/components/ui/dialog-form';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { RequiredLabel } from '@/components/ui/required-label';
import { capitalised } from '@/lib/format';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useSaveLimit } from '../api/save-limit';
import {
  LIMIT_FORM_FIELDS,
  NEW_LIMIT,
  limitFormOf,
  limitFormSchema,
  namesSubject,
  toLimitBody,
} from '../lib/limit-form';
import { MODE_DESCRIPTIONS } from '../lib/limit-text';
import { LimitPreview } from './limit-preview';

/** The subject input's words for each scope that names one. */
const SUBJECT_FIELDS: Partial<Record<LimitScope, { label: string; placeholder: string; hint: string }>> = {
  chat: { label: 'Chat id', placeholder: '-1001234567890', hint: 'The Telegram chat id the bot reports' },
  user: { label: 'User id', placeholder: '123456789', hint: 'The Telegram user id the bot reports' },
  feature: { label: 'Feature', placeholder: 'digest', hint: 'As the bot names it in its LLM calls' },
};

const SCOPE_HINTS: Record<LimitScope, string> = {
  chat: 'One chat',
  user: 'One user',
  feature: 'All calls of one feature together',
  each_chat: 'Every chat without a limit of its own, each counted apart',
  each_user: 'Every user without a limit of its own, each counted apart',
};

/** The amount input of each metric: money to the cent, counts in whole numbers. */
const AMOUNT_INPUTS: Record<LimitMetric, { label: string; step: string; inputMode: 'decimal' | 'numeric' }> =
  {
    cost_usd: { label: 'Amount (USD)', step: '0.01', inputMode: 'decimal' },
    tokens: { label: 'Amount (tokens)', step: '1', inputMode: 'numeric' },
    requests: { label: 'Amount (requests)', step: '1', inputMode: 'numeric' },
  };

/** An empty number input means "no number"; anything else is read as one. */
const numberInput = {
  setValueAs: (value: unknown) => {
    if (value === '' || value === null || value === undefined) return null;
    const number = Number(value);
    return Number.isNaN(number) ? null : number;
  },
};

interface LimitDialogProps {
  /** The limit to edit (replaced as a whole), or none to create one. */
  limit?: Limit;
  onClose: () => void;
}

/** Add or edit a limit, with a live preview of who is over or near it now. */
export function LimitDialog({ limit, onClose }: LimitDialogProps) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={limit ? 'Edit Limit' : 'Add Limit'}
      description="Usage counts in the current calendar minute, hour, day or month of the server's time zone."
      className="max-w-2xl"
    >
      <LimitForm limit={limit} onDone={onClose} />
    </Dialog>
  );
}

function LimitForm({ limit, onDone }: { limit?: Limit; onDone: () => void }) {
  const save = useSaveLimit();
  const dialog = useFormDialog(limitFormSchema(), {
    defaultValues: limit ? limitFormOf(limit) : NEW_LIMIT,
    save: (values) => save.mutateAsync({ id: limit?.id, input: toLimitBody(values) }),
    onSaved: onDone,
    serverFields: LIMIT_FORM_FIELDS,
    failureMessage: limit ? 'Failed to save the limit' : 'Failed to create the limit',
    successMessage: limit ? 'Limit saved' : 'Limit created',
  });
  const { register, control } = dialog.form;
  const { errors } = dialog.form.formState;
  const scope = useWatch({ control, name: 'scope' });
  const metric = useWatch({ control, name: 'metric' });
  const subjectField = namesSubject(scope) ? SUBJECT_FIELDS[scope] : undefined;
  const amountInput = AMOUNT_INPUTS[metric];

  return (
    <DialogForm dialog={dialog} onCancel={onDone} submitLabel={limit ? 'Save Limit' : 'Create Limit'}>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Applies to" error={errors.scope?.message} hint={SCOPE_HINTS[scope]}>
          <Select {...register('scope')}>
            {LIMIT_SCOPES.map((option) => (
              <option key={option} value={option}>
                {LIMIT_SCOPE_LABELS[option]}
              </option>
            ))}
          </Select>
        </Field>
        {subjectField && (
          <Field
            label={<RequiredLabel>{subjectField.label}</RequiredLabel>}
            error={errors.subject?.message}
            hint={subjectField.hint}
          >
            <Input
              autoComplete="off"
              aria-required
              placeholder={subjectField.placeholder}
              inputMode={scope === 'feature' ? undefined : 'numeric'}
              {...register('subject')}
            />
          </Field>
        )}
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Metric" error={errors.metric?.message}>
          <Select {...register('metric')}>
            {LIMIT_METRICS.map((option) => (
              <option key={option} value={option}>
                {LIMIT_METRIC_LABELS[option]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label={<RequiredLabel>{amountInput.label}</RequiredLabel>} error={errors.amount?.message}>
          <Input
            type="number"
            min={0}
            step={amountInput.step}
            inputMode={amountInput.inputMode}
            aria-required
            {...register('amount', numberInput)}
          />
        </Field>
        <Field label="Window" error={errors.window?.message}>
          <Select {...register('window')}>
            {LIMIT_WINDOWS.map((option) => (
              <option key={option} value={option}>
                {capitalised(LIMIT_WINDOW_LABELS[option])}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <fieldset className="space-y-2">
        <legend className="mb-1.5 text-sm font-medium">Mode</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {LIMIT_MODES.map((mode) => (
            <label key={mode} className="flex items-center gap-2 text-sm">
              <input type="radio" value={mode} className="size-4 accent-primary" {...register('mode')} />
              {MODE_DESCRIPTIONS[mode]}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="space-y-3 rounded-md border p-3">
        <legend className="px-1 text-sm font-medium">Temporary raise (optional)</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Raise to" error={errors.raise_amount?.message} hint="Applies instead until then">
            <Input
              type="number"
              min={0}
              step={amountInput.step}
              inputMode={amountInput.inputMode}
              {...register('raise_amount', numberInput)}
            />
          </Field>
          <Field label="Until" error={errors.raise_until?.message} hint="Your local time">
            <Input type="datetime-local" {...register('raise_until')} />
          </Field>
        </div>
      </fieldset>
      <Field label="Note (optional)" error={errors.note?.message} hint="Why the limit is there">
        <Input autoComplete="off" dir="auto" {...register('note')} />
      </Field>
      <LimitPreview />
    </DialogForm>
  );
}
