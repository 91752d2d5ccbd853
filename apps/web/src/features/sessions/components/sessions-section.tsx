import type { AuthSession } from '@lumi/contract';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { deviceName, SessionsView } from '@/components/session-list';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useOwnSessions, useRevokeOtherSessions, useRevokeSession } from '../api/sessions';

type Confirming = { kind: 'one'; session: AuthSession } | { kind: 'others' } | null;

/**
 * Profile → Sessions (docs/operators/security.md, "Sessions"): where the user is signed in, and signing out
 * any of the others.
 */
export function SessionsSection() {
  const sessions = useOwnSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((session) => !session.current).length;

  const close = (open: boolean) => {
    if (open) return;
    setConfirming(null);
    revoke.reset();
    revokeOthers.reset();
  };

  const body = (
    <SessionsView
      query={sessions}
      empty="No signed-in sessions."
      label="Your sessions"
      markCurrent
      actions={(session) =>
        !session.current && (
          <Button
            variant="secondary"
            size="sm"
            aria-label={`Sign out ${deviceName(session)}, signed in ${formatDateTime(session.created_at)}`}
            onClick={() => setConfirming({ kind: 'one', session })}
          >
            Sign out
          </Button>
        )
      }
    />
  );

  return (
    <Card aria-labelledby="sessions-title" className="mt-6">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b p-4">
        <CardTitle id="sessions-title">Sessions</CardTitle>
        {others > 0 && (
          <Button variant="secondary" size="sm" onClick={() => setConfirming({ kind: 'others' })}>
            Sign out all other sessions
          </Button>
        )}
      </div>
      <CardContent className="space-y-3">
        <p className="text-sm text-muted-foreground">
          Where you are signed in. Sign out a session you do not recognise, then change your password.
        </p>
        {body}
      </CardContent>
      {confirming?.kind === 'one' && (
        <ConfirmDialog
          open
          onOpenChange={close}
          title="Sign out this session?"
          description={`${deviceName(confirming.session)} will be signed out at once.`}
          confirmLabel="Sign out"
          pendingLabel="Signing out..."
          pending={revoke.isPending}
          error={revoke.error ? errorMessage(revoke.error, 'Failed to sign out the session') : null}
          onConfirm={() =>
            revoke.mutate(confirming.session.id, {
              onSuccess: () => {
                toast.success('Session signed out');
                close(false);
              },
            })
          }
        />
      )}
      {confirming?.kind === 'others' && (
        <ConfirmDialog
          open
          onOpenChange={close}
          title="Sign out all other sessions?"
          description={`Every session but this one (${others}) will be signed out at once.`}
          confirmLabel="Sign out others"
          pendingLabel="Signing out..."
          pending={revokeOthers.isPending}
          error={
            revokeOthers.error ? errorMessage(revokeOthers.error, 'Failed to sign out the sessions') : null
          }
          onConfirm={() =>
            revokeOthers.mutate(undefined, {
              onSuccess: ({ revoked }) => {
                toast.success(revoked === 1 ? '1 session signed out' : `${revoked} sessions signed out`);
                close(false);
              },
            })
          }
        />
      )}
    </Card>
  );
}
