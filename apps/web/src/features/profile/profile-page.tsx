import { useEffect, useRef } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuthStore } from '@/lib/auth-store';
import { useProfile } from './api/get-profile';
import { PasswordSection } from './components/password-section';
import { PersonalInfoSection } from './components/personal-info-section';
import { useProfileForm } from './hooks/use-profile-form';

interface ProfilePageProps {
  /** Called two seconds after a password change: the user signs in again with the new password. */
  onSignOut: () => void;
}

/** Profile Settings (spec sections 2, 5 and 8). GET /auth/profile falls back to the stored user. */
export function ProfilePage({ onSignOut }: ProfilePageProps) {
  const user = useAuthStore((state) => state.user);
  const profile = useProfile();
  const current = profile.data ?? user;

  return (
    <>
      <PageHeader title="Profile Settings" />
      {profile.isPending || !current ? (
        // The form's own heights (personal details, password, buttons), on a phone and from 640 px: the
        // two-factor and sessions sections below do not move when it arrives (CLS, docs/benchmarks.md).
        <div role="status" aria-label="Loading profile" className="space-y-6">
          <Skeleton className="h-83 sm:h-63" />
          <Skeleton className="h-35 sm:h-30" />
          <Skeleton className="ml-auto h-9 w-60" />
        </div>
      ) : (
        <ProfileForm
          current={{ name: current.name, email: current.email }}
          username={current.username}
          onSignOut={onSignOut}
        />
      )}
    </>
  );
}

interface ProfileFormProps extends ProfilePageProps {
  current: { name: string; email: string };
  username: string;
}

function ProfileForm({ current, username, onSignOut }: ProfileFormProps) {
  const profileForm = useProfileForm({ current, onSignOut });
  const { banner, passwordChanged, onSubmit, onReset, form } = profileForm;
  const { isDirty, isSubmitting } = form.formState;
  const bannerRef = useRef<HTMLDivElement>(null);

  // The banner sits on top of the page; bring it into view after a save from the bottom of a small screen.
  useEffect(() => {
    if (banner) bannerRef.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [banner]);

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-6">
      <div ref={bannerRef} className="scroll-mt-20">
        {banner && <Alert variant={banner.variant}>{banner.text}</Alert>}
      </div>
      <fieldset disabled={passwordChanged} className="min-w-0 space-y-6">
        <PersonalInfoSection profileForm={profileForm} username={username} />
        <PasswordSection profileForm={profileForm} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onReset} disabled={!isDirty || isSubmitting}>
            Reset
          </Button>
          <Button type="submit" disabled={!isDirty || isSubmitting}>
            {isSubmitting ? 'Saving...' : 'Save Changes'}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
