import type { User } from '@lumi/contract';
import { ConfirmDialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useResetTwoFactor } from '../api/user-security';

interface ResetTwoFactorDialogProps {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Reset a user's two-factor sign-in (a lost phone), after a confirmation that says what follows. */
export function ResetTwoFactorDialog({ user, open, onOpenChange }: ResetTwoFactorDialogProps) {
  const reset = useResetTwoFactor();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Reset two-factor authentication"
      description={`${user.name} will sign in with the password alone, and their recovery codes stop working. If a role requires two-factor sign-in, they must set it up again at their next sign-in.`}
      confirmLabel="Reset"
      pendingLabel="Resetting..."
      pending={reset.isPending}
      error={reset.error ? errorMessage(reset.error, 'Failed to reset two-factor authentication') : null}
      onConfirm={() => reset.mutate(user.id, { onSuccess: () => onOpenChange(false) })}
    />
  );
}
