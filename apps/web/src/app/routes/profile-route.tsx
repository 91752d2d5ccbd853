import { useCallback } from 'react';
import { useSignOut } from '@/features/auth/api/logout';
import { ProfilePage } from '@/features/profile/profile-page';
import { SessionsSection } from '@/features/sessions/components/sessions-section';
import { TwoFactorSection } from '@/features/two-factor/components/two-factor-section';

/** Profile Settings, signing out through the auth feature after a password change; then two-factor and sessions. */
export function ProfileRoute() {
  const { mutate: signOut } = useSignOut();
  const onSignOut = useCallback(() => signOut(), [signOut]);
  return (
    <>
      <ProfilePage onSignOut={onSignOut} />
      <TwoFactorSection />
      <SessionsSection />
    </>
  );
}
