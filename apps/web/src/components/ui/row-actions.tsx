import { Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';

interface RowActionProps {
  /** The accessible name, naming the row: "Edit alice". */
  label: string;
  disabled?: boolean;
  onClick: () => void;
}

function IconAction({ label, disabled, onClick, children }: RowActionProps & { children: ReactNode }) {
  return (
    <Button variant="ghost" size="icon" aria-label={label} disabled={disabled} onClick={onClick}>
      {children}
    </Button>
  );
}

/** The icon button that opens a row's edit form. */
export function EditButton(props: RowActionProps) {
  return (
    <IconAction {...props}>
      <Pencil aria-hidden />
    </IconAction>
  );
}

/** The icon button that asks to delete a row, in the destructive colour. */
export function DeleteButton(props: RowActionProps) {
  return (
    <IconAction {...props}>
      <Trash2 aria-hidden className="text-destructive" />
    </IconAction>
  );
}
