import { Power } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { DeleteButton, EditButton } from '@/components/ui/row-actions';

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
      <EditButton label={`Edit ${label}`} onClick={onEdit} />
      <Button variant="ghost" size="sm" disabled={toggling} onClick={onToggle}>
        <Power aria-hidden />
        {enabled ? 'Disable' : 'Enable'}
        <span className="sr-only"> {label}</span>
      </Button>
      <DeleteButton label={`Delete ${label}`} onClick={onDelete} />
    </>
  );
}
