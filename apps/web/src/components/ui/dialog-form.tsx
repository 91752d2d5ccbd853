import { useEffect, type ReactNode } from 'react';
import { FormProvider, type FieldValues } from 'react-hook-form';
import type { FormDialogState } from '@/lib/use-form-dialog';
import { Alert } from './alert';
import { Button } from './button';
import { DialogFooter } from './dialog';
import { useDialogDiscardGuard } from './unsaved-changes';

/** What a submit button says while its save runs, by the verb it starts with. */
const PENDING_LABELS = { Create: 'Creating...', Update: 'Updating...', Save: 'Saving...' } as const;
type Verb = keyof typeof PENDING_LABELS;

/** A submit button's words: a verb, alone or with what it saves ('Create User'). */
export type SubmitLabel = Verb | `${Verb} ${string}`;

interface DialogFormProps<T extends FieldValues, TOutput> {
  /** What useFormDialog returned; the fields inside reach the form through it or through useFormContext. */
  dialog: FormDialogState<T, TOutput>;
  onCancel: () => void;
  submitLabel: SubmitLabel;
  /** Above the alert: the heading of a view that replaces another. */
  heading?: ReactNode;
  /** Small buttons without the top gap, for a form inline in a list. */
  compact?: boolean;
  className?: string;
  'aria-label'?: string;
  children: ReactNode;
}

/**
 * The form of a dialog, or of a view inside one: the alert for a failure no field shows, the fields,
 * then Cancel and a submit button that is disabled and says what it is doing while the save runs. Edits
 * not saved are reported to the dialog, and Cancel asks before it discards them.
 */
export function DialogForm<T extends FieldValues, TOutput>({
  dialog: { form, onSubmit, failure, pending },
  onCancel,
  submitLabel,
  heading,
  compact,
  className = 'space-y-4',
  'aria-label': label,
  children,
}: DialogFormProps<T, TOutput>) {
  const size = compact ? 'sm' : 'md';
  // The enclosing dialog asks before its Escape, outside click or close button drops these edits.
  const discard = useDialogDiscardGuard();
  const { isDirty } = form.formState;
  useEffect(() => {
    discard?.report(isDirty);
    return () => discard?.report(false);
  }, [discard, isDirty]);
  // The label's type guarantees it starts with one of the verbs.
  const pendingLabel = PENDING_LABELS[submitLabel.split(' ')[0] as Verb];
  const buttons = (
    <>
      <Button
        variant="secondary"
        size={size}
        onClick={() => (discard ? discard.guard(onCancel) : onCancel())}
      >
        Cancel
      </Button>
      <Button type="submit" size={size} disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </>
  );
  return (
    <FormProvider {...form}>
      <form noValidate onSubmit={onSubmit} aria-label={label} className={className}>
        {heading}
        {failure && <Alert variant="error">{failure}</Alert>}
        {children}
        {compact ? (
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{buttons}</div>
        ) : (
          <DialogFooter>{buttons}</DialogFooter>
        )}
      </form>
    </FormProvider>
  );
}
