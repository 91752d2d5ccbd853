import { useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import type { ProfileForm } from '../hooks/use-profile-form';

const FIELDS_ID = 'password-fields';

/**
 * The optional password change (spec sections 2 and 4): a disclosure button reveals the three fields, and
 * cancelling hides and empties them.
 */
export function PasswordSection({ profileForm }: { profileForm: ProfileForm }) {
  const { form, field, setPasswordOpen } = profileForm;
  const open = useWatch({ control: form.control, name: 'changePassword' });
  const { errors } = form.formState;
  return (
    <Card aria-labelledby="password-title">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b p-4">
        <CardTitle id="password-title">Password</CardTitle>
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={open}
          aria-controls={open ? FIELDS_ID : undefined}
          onClick={() => setPasswordOpen(!open)}
        >
          {open ? 'Cancel password change' : 'Change password'}
        </Button>
      </div>
      <CardContent>
        {open ? (
          <div id={FIELDS_ID} className="grid gap-4 sm:grid-cols-3">
            <Field label="Current Password" error={errors.currentPassword?.message}>
              <Input type="password" autoComplete="current-password" {...field('currentPassword')} />
            </Field>
            <Field label="New Password" error={errors.newPassword?.message}>
              <Input type="password" autoComplete="new-password" {...field('newPassword')} />
            </Field>
            <Field label="Confirm New Password" error={errors.confirmPassword?.message}>
              <Input type="password" autoComplete="new-password" {...field('confirmPassword')} />
            </Field>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">Use a strong password with at least 8 characters</p>
        )}
      </CardContent>
    </Card>
  );
}
