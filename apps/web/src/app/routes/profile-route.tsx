import { useCallback } from 'react';
import { useSignOut } from '@/features/auth/api/logout';
import { ProfilePage } from '@/features/profile/profile-page';

/** Profile Settings, signing out through the auth feature after a password change. */
export function ProfileRoute() {
  const { mutate: signOut } = useSignOut();
  const onSignOut = useCallback(() => signOut(), [signOut]);
  return <ProfilePage onSignOut={onSignOut} />;
}
