import { AlertDialog as RadixAlertDialog } from 'radix-ui';
import { createContext, useContext, useEffect, useState } from 'react';
import { useBlocker, type Location } from 'react-router';
import { cn } from '@/lib/cn';
import { Button } from './button';

/**
 * Unsaved changes are never lost without a question: leaving a form that holds edits (its Cancel, Escape,
 * a click outside its dialog, another item, another page, closing the tab) first asks "Discard unsaved
 * changes?".
 */

interface DiscardChangesDialogProps {
  open: boolean;
  onDiscard: () => void;
  onKeep: () => void;
}

/** The question itself: discarding is the destructive choice, keeping the edits the safe default. */
export function DiscardChangesDialog({ open, onDiscard, onKeep }: DiscardChangesDialogProps) {
  return (
    <RadixAlertDialog.Root open={open} onOpenChange={(next) => !next && onKeep()}>
      <RadixAlertDialog.Portal>
        <RadixAlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <RadixAlertDialog.Content
          className={cn(
            'fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2',
            'rounded-lg border bg-card p-5 text-card-foreground shadow-xl',
          )}
        >
          <RadixAlertDialog.Title className="text-lg font-semibold">
            Discard unsaved changes?
          </RadixAlertDialog.Title>
          <RadixAlertDialog.Description className="mt-2 text-sm text-muted-foreground">
            Your changes have not been saved. Discard them, or keep editing to save them.
          </RadixAlertDialog.Description>
          <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <RadixAlertDialog.Cancel asChild>
              <Button variant="secondary">Keep editing</Button>
            </RadixAlertDialog.Cancel>
            <RadixAlertDialog.Action asChild>
              <Button variant="destructive" onClick={onDiscard}>
                Discard changes
              </Button>
            </RadixAlertDialog.Action>
          </div>
        </RadixAlertDialog.Content>
      </RadixAlertDialog.Portal>
    </RadixAlertDialog.Root>
  );
}

/** Whether a navigation leaves what the form is on; by default any change of page. */
type Leaves = (current: Location, next: Location) => boolean;
const otherPage: Leaves = (current, next) => current.pathname !== next.pathname;

/**
 * Guards a form that lives on a page (not in a dialog): `guard(action)` runs `action` at once when
 * nothing is unsaved and asks first otherwise; a navigation that `leaves` the form, and closing or
 * reloading the tab (the browser's own question), ask too. Render `prompt` once.
 */
export function useUnsavedChanges(dirty: boolean, leaves: Leaves = otherPage) {
  const [pending, setPending] = useState<{ action: () => void } | null>(null);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && leaves(currentLocation, nextLocation),
  );

  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  const guard = (action: () => void) => (dirty ? setPending({ action }) : action());
  const blocked = blocker.state === 'blocked';
  const prompt = (
    <DiscardChangesDialog
      open={pending !== null || blocked}
      onDiscard={() => {
        if (blocked) blocker.proceed();
        const action = pending?.action;
        setPending(null);
        action?.();
      }}
      onKeep={() => {
        if (blocked) blocker.reset();
        setPending(null);
      }}
    />
  );
  return { guard, prompt };
}

/**
 * Inside a dialog: the form reports whether it holds edits (`report`), and the dialog asks before any
 * way of closing it drops them (`guard`). Dialog provides it; DialogForm reports and guards its Cancel.
 */
export interface DialogDiscardGuard {
  report: (dirty: boolean) => void;
  guard: (action: () => void) => void;
}

export const DialogDiscardContext = createContext<DialogDiscardGuard | null>(null);

/** The enclosing dialog's guard, or none outside a dialog. */
export function useDialogDiscardGuard(): DialogDiscardGuard | null {
  return useContext(DialogDiscardContext);
}
