import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardTitle } from '@/components/ui/card';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { useTwoFactorStatus } from '../api/two-factor';
import { DisableTwoFactorDialog } from './disable-two-factor-dialog';
import { TwoFactorEnrolment } from './two-factor-enrolment';

/**
 * Profile → Two-factor authentication (docs/operators/security.md, "Two-factor sign-in"): its state, setting
 * it up, turning it off.
 */
export function TwoFactorSection() {
  const status = useTwoFactorStatus();
  const [enrolling, setEnrolling] = useState(false);
  const [disabling, setDisabling] = useState(false);
  const on = status.data?.enabled === true;

  let body;
  if (status.isPending) {
    body = <Skeleton role="status" aria-label="Loading two-factor authentication" className="h-16" />;
  } else if (status.isError) {
    body = <LoadError title="Failed to load two-factor authentication" query={status} />;
  } else if (enrolling) {
    body = <TwoFactorEnrolment onDone={() => setEnrolling(false)} onCancel={() => setEnrolling(false)} />;
  } else if (on) {
    const { enabled_at: since, recovery_codes_left: left, required } = status.data;
    body = (
      <div className="space-y-3 text-sm">
        <p>
          Signing in asks for a code from your authenticator app. On since {formatDateTime(since, 'unknown')};{' '}
          {left === 1 ? '1 recovery code' : `${left} recovery codes`} left.
        </p>
        {required && (
          <p className="text-muted-foreground">One of your roles requires it, so it cannot be turned off.</p>
        )}
        {!required && (
          <Button variant="secondary" onClick={() => setDisabling(true)}>
            Turn off
          </Button>
        )}
      </div>
    );
  } else {
    body = <Button onClick={() => setEnrolling(true)}>Set up</Button>;
  }

  return (
    <Card aria-labelledby="two-factor-title" className="mt-6">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b p-4">
        <CardTitle id="two-factor-title">Two-factor authentication</CardTitle>
        {status.data && (
          <Badge variant={on ? 'success' : 'neutral'}>
            {on && <ShieldCheck aria-hidden className="size-3.5" />}
            {on ? 'On' : 'Off'}
          </Badge>
        )}
      </div>
      <CardContent className="space-y-3">
        {/* Whatever its state, so the screen's first view (in its page) shows it too. */}
        <p className="text-sm text-muted-foreground">
          Protect your account with a second step at sign-in: a code from an authenticator app on your phone.
        </p>
        {body}
      </CardContent>
      {disabling && <DisableTwoFactorDialog open onOpenChange={setDisabling} />}
    </Card>
  );
}
