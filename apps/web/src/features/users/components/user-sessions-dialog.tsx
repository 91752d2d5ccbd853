import type { User } from '@lumi/contract';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogFooter } from '@/components/ui/dialog';
import { SessionsView } from '@/components/session-list';
import { errorMessage } from '@/lib/api-client';
import { useRevokeUserSessions, useUserSessions } from '../api/user-security';

interface UserSessionsDialogProps {
  user: User;
  /** "Sign out everywhere" needs users:write. */
  canWrite: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * A user's signed-in sessions (docs/operators/security.md, "Sessions"), and signing them out everywhere after
 * a confirmation inside the same dialog (a second modal over this one would trap focus twice).
 */
export function UserSessionsDialog({ user, canWrite, open, onOpenChange }: UserSessionsDialogProps) {
  const sessions = useUserSessions(user.id);
  const revoke = useRevokeUserSessions(user.id);
  const [confirming, setConfirming] = useState(false);
  const list = sessions.data?.sessions ?? [];

  const body = (
    <SessionsView
      query={sessions}
      empty={`${user.name} is not signed in anywhere.`}
      label={`Sessions of ${user.username}`}
    />
  );

  const signOutEverywhere = () =>
    revoke.mutate(undefined, {
      onSuccess: ({ revoked }) => {
        toast.success(
          `${user.username} signed out of ${revoked === 1 ? '1 session' : `${revoked} sessions`}`,
        );
        setConfirming(false);
      },
    });

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Sessions of ${user.name}`} className="max-w-xl">
      <div className="space-y-4">
        {body}
        {confirming && (
          <Alert variant="error" title="Sign out everywhere?">
            Every session of {user.name} ends at once; they must sign in again.
            {revoke.error && (
              <span className="mt-1 block font-medium">
                {errorMessage(revoke.error, 'Failed to sign the user out')}
              </span>
            )}
          </Alert>
        )}
        <DialogFooter>
          {confirming ? (
            <>
              <Button variant="secondary" onClick={() => setConfirming(false)} disabled={revoke.isPending}>
                Cancel
              </Button>
              <Button variant="destructive" autoFocus onClick={signOutEverywhere} disabled={revoke.isPending}>
                {revoke.isPending ? 'Signing out...' : 'Yes, sign out everywhere'}
              </Button>
            </>
          ) : (
            <>
              <Button variant="secondary" onClick={() => onOpenChange(false)}>
                Close
              </Button>
              {canWrite && list.length > 0 && (
                <Button variant="destructive" onClick={() => setConfirming(true)}>
                  Sign out everywhere
                </Button>
              )}
            </>
          )}
        </DialogFooter>
      </div>
    </Dialog>
  );
}
