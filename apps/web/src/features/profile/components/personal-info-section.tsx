import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import type { ProfileForm } from '../hooks/use-profile-form';

interface PersonalInfoSectionProps {
  profileForm: ProfileForm;
  username: string;
}

/** Name and Email are editable; the username is shown read-only (spec section 2, Profile Settings). */
export function PersonalInfoSection({ profileForm, username }: PersonalInfoSectionProps) {
  const { errors } = profileForm.form.formState;
  return (
    <Card aria-labelledby="personal-information-title">
      <CardHeader>
        <CardTitle id="personal-information-title">Personal Information</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" error={errors.name?.message}>
          <Input autoComplete="name" {...profileForm.field('name')} />
        </Field>
        <Field label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" {...profileForm.field('email')} />
        </Field>
        <Field label="Username" hint="Username cannot be changed" className="sm:col-span-2">
          <Input value={username} readOnly autoComplete="username" />
        </Field>
      </CardContent>
    </Card>
  );
}
