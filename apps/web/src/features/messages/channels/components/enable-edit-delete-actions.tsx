import { Pencil, Power, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';

interface EnableEditDeleteActionsProps {
  /** The channel or topic name, for the buttons' accessible names. */
  label: string;
  enabled: boolean;
  toggling: boolean;
  onEdit: () => void;
  onToggle: () => void;
  onDelete: () => void;
}

/** Edit, enable/disable and delete for one channel or topic row. */
export function EnableEditDeleteActions({
  label,
  enabled,
  toggling,
  onEdit,
  onToggle,
  onDelete,
}: EnableEditDeleteActionsProps) {
  return (
    <>
      <Button variant="ghost" size="icon" aria-label={`Edit ${label}`} onClick={onEdit}>
        <Pencil aria-hidden />
      </Button>
      <Button variant="ghost" size="sm" disabled={toggling} onClick={onToggle}>
        <Power aria-hidden />
        {enabled ? 'Disable' : 'Enable'}
        <span className="sr-only"> {label}</span>
      </Button>
      <Button variant="ghost" size="icon" aria-label={`Delete ${label}`} onClick={onDelete}>
        <Trash2 aria-hidden className="text-destructive" />
      </Button>
    </>
  );
}
