import { X } from 'lucide-react';
import { AlertDialog as RadixAlertDialog, Dialog as RadixDialog } from 'radix-ui';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { placeOf, type FocusPlace } from '@/lib/focus-in-place';
import { Button } from './button';
import { DialogDiscardContext, DiscardChangesDialog, type DialogDiscardGuard } from './unsaved-changes';

const overlayClass = 'fixed inset-0 z-40 bg-black/50';
const contentClass =
  'fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border bg-card p-5 text-card-foreground shadow-xl';

/**
 * Radix hands focus back to its Trigger, but these dialogs are opened from code without one, so focus
 * would fall to the page. Remember what had focus when the dialog opened and return there on close; when
 * that control has left the page, or leaves it as its list reloads (a deleted row's button), focus goes to
 * its place in the list (lib/focus-in-place.ts).
 */
function useReturnFocus() {
  const opener = useRef<FocusPlace | null>(null);
  return {
    onOpenAutoFocus: () => {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? placeOf(active) : null;
    },
    onCloseAutoFocus: (event: Event) => {
      if (!opener.current) return;
      event.preventDefault();
      opener.current.restore();
    },
  };
}

/**
 * The buttons at the end of a dialog. The dialog scrolls as a whole when it is taller than the screen, so
 * the footer sticks to the bottom of it (over the content's bottom padding) and Save and Cancel stay in
 * reach while the fields scroll under them.
 */
export function DialogFooter({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={cn(
        'sticky -bottom-5 z-10 -mx-5 -mb-5 flex flex-col-reverse gap-2 border-t bg-card px-5 py-4 sm:flex-row sm:justify-end',
        className,
      )}
    >
      {children}
    </div>
  );
}

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}

/**
 * A modal dialog: focus is trapped inside, Escape closes it, and focus returns to the opener. While a form
 * inside reports unsaved edits (DialogForm does), Escape, a click outside and the close button ask before
 * discarding them.
 */
export function Dialog({ open, onOpenChange, title, description, children, className }: DialogProps) {
  const returnFocus = useReturnFocus();
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState<{ action: () => void } | null>(null);
  const discard = useMemo<DialogDiscardGuard>(
    () => ({ report: setDirty, guard: (action) => (dirty ? setAsking({ action }) : action()) }),
    [dirty],
  );
  const change = (next: boolean) => (next ? onOpenChange(true) : discard.guard(() => onOpenChange(false)));
  return (
    <RadixDialog.Root open={open} onOpenChange={change}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlayClass} />
        <RadixDialog.Content
          {...returnFocus}
          className={cn(contentClass, 'max-w-lg', className)}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <RadixDialog.Title className="text-lg font-semibold">{title}</RadixDialog.Title>
              {description && (
                <RadixDialog.Description className="mt-1 text-sm text-muted-foreground">
                  {description}
                </RadixDialog.Description>
              )}
            </div>
            <RadixDialog.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close">
                <X aria-hidden />
              </Button>
            </RadixDialog.Close>
          </div>
          <DialogDiscardContext.Provider value={discard}>{children}</DialogDiscardContext.Provider>
          <DiscardChangesDialog
            open={asking !== null}
            onDiscard={() => {
              const action = asking?.action;
              setAsking(null);
              action?.();
            }}
            onKeep={() => setAsking(null)}
          />
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  /**
   * The choice that changes nothing; 'Cancel' unless that could be read as the action itself ('Cancel
   * delivery' beside 'Keep delivery', not beside 'Cancel').
   */
  cancelLabel?: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  error?: string | null;
}

/** Confirmation before a destructive action; the confirm button stays disabled while it runs. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const returnFocus = useReturnFocus();
  return (
    <RadixAlertDialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <RadixAlertDialog.Portal>
        <RadixAlertDialog.Overlay className={overlayClass} />
        <RadixAlertDialog.Content {...returnFocus} className={cn(contentClass, 'max-w-md')}>
          <RadixAlertDialog.Title className="text-lg font-semibold">{props.title}</RadixAlertDialog.Title>
          <RadixAlertDialog.Description className="mt-2 text-sm text-muted-foreground">
            {props.description}
          </RadixAlertDialog.Description>
          {props.error && (
            <p role="alert" className="mt-3 text-sm text-destructive">
              {props.error}
            </p>
          )}
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="destructive" disabled={props.pending} onClick={props.onConfirm}>
              {props.pending ? props.pendingLabel : props.confirmLabel}
            </Button>
            <RadixAlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={props.pending}>
                {props.cancelLabel ?? 'Cancel'}
              </Button>
            </RadixAlertDialog.Cancel>
          </div>
        </RadixAlertDialog.Content>
      </RadixAlertDialog.Portal>
    </RadixAlertDialog.Root>
  );
}
