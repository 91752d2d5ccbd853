import { cn } from '@/lib/cn';
import { Button } from './button';

interface FormActionsProps {
  onCancel: () => void;
  pending: boolean;
  submitLabel: string;
  /** The submit button's words while the save runs, e.g. 'Saving...'. */
  pendingLabel: string;
  /** Small buttons without the top gap, for a form inline in a list. */
  compact?: boolean;
}

/** Cancel and submit at the foot of a form; the submit button is disabled and says so while saving. */
export function FormActions({ onCancel, pending, submitLabel, pendingLabel, compact }: FormActionsProps) {
  const size = compact ? 'sm' : 'md';
  return (
    <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', !compact && 'pt-2')}>
      <Button variant="secondary" size={size} onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" size={size} disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </div>
  );
}
