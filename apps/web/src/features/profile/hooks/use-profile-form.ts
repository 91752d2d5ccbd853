import { profileFormSchema, type ProfileFormValues, type UpdateProfileInput } from '@lumi/contract';
import { useEffect, useMemo, useState, type BaseSyntheticEvent } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { applyFieldErrors, type ServerFields } from '@/lib/form-errors';
import { useFormDialog } from '@/lib/use-form-dialog';
import { useChangePassword } from '../api/change-password';
import { useUpdateProfile } from '../api/update-profile';

export type ProfileFormInput = z.input<typeof profileFormSchema>;
type ProfileField = Exclude<keyof ProfileFormInput, 'changePassword'>;

export interface Banner {
  variant: 'success' | 'error';
  text: string;
}

/** Spec section 4: after a password change the user is signed out after 2 seconds. */
export const SIGN_OUT_DELAY_MS = 2000;

/** Server field names (422 `errors[].path`) onto the form's fields. */
const SERVER_FIELDS: ServerFields<ProfileFormInput> = {
  name: 'name',
  email: 'email',
  current_password: 'currentPassword',
  new_password: 'newPassword',
  confirm_password: 'confirmPassword',
};

function formValues(current: { name: string; email: string }): ProfileFormInput {
  return {
    name: current.name,
    email: current.email,
    changePassword: false,
    currentPassword: '',
    newPassword: '',
    confirmPassword: '',
  };
}

interface ProfileFormOptions {
  current: { name: string; email: string };
  onSignOut: () => void;
}

export interface ProfileForm {
  form: UseFormReturn<ProfileFormInput, unknown, ProfileFormValues>;
  banner: Banner | null;
  /** True once the password changed: the form is frozen until the sign-out. */
  passwordChanged: boolean;
  onSubmit: (event?: BaseSyntheticEvent) => Promise<void>;
  onReset: () => void;
  /** Registers a field so that editing it clears its error (spec section 5). */
  field: (name: ProfileField) => ReturnType<UseFormReturn<ProfileFormInput>['register']>;
  setPasswordOpen: (open: boolean) => void;
}

/** The Profile Settings form: validation of spec section 5, saving per sections 7 and 8. */
export function useProfileForm({ current, onSignOut }: ProfileFormOptions): ProfileForm {
  const updateProfile = useUpdateProfile();
  const changePassword = useChangePassword();
  const [success, setSuccess] = useState<string | null>(null);
  const [passwordChanged, setPasswordChanged] = useState(false);
  // The banner speaks of the last save; the next edit is new work, so it goes until the next save.
  const [bannerDismissed, setBannerDismissed] = useState(false);
  const { form, onSubmit, failure, reset } = useFormDialog(profileFormSchema, {
    defaultValues: formValues(current),
    // A field error clears when the field is edited and comes back only on the next submit (section 5).
    reValidateMode: 'onSubmit',
    failureMessage: 'Failed to update profile',
    // The server's detail shows above the form even when each of its messages found a field.
    onError: (error) => {
      applyFieldErrors(error, SERVER_FIELDS, form.setError);
      return false;
    },
    save: async (values) => {
      setSuccess(null);
      setBannerDismissed(false);
      const saved = form.formState.defaultValues;
      const changes: UpdateProfileInput = {};
      if (values.name !== saved?.name) changes.name = values.name;
      if (values.email !== saved?.email) changes.email = values.email;
      if (changes.name !== undefined || changes.email !== undefined) {
        const profile = await updateProfile.mutateAsync(changes);
        // The saved values become what Reset restores, even if the password change below fails.
        form.reset(formValues(profile), { keepValues: true });
      }
      if (values.changePassword) {
        await changePassword.mutateAsync({
          current_password: values.currentPassword,
          new_password: values.newPassword,
          confirm_password: values.confirmPassword,
        });
        setPasswordChanged(true);
        setSuccess('Password changed successfully. Please log in with your new password.');
        return;
      }
      form.reset(formValues({ name: values.name, email: values.email }));
      setSuccess('Changes saved successfully');
    },
  });

  const banner = useMemo<Banner | null>(() => {
    if (bannerDismissed) return null;
    if (success) return { variant: 'success', text: success };
    return failure ? { variant: 'error', text: failure } : null;
  }, [success, failure, bannerDismissed]);

  useEffect(() => {
    if (!passwordChanged) return;
    const timer = setTimeout(onSignOut, SIGN_OUT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [passwordChanged, onSignOut]);

  const onReset = () => {
    reset();
    setSuccess(null);
  };

  const field = (name: ProfileField) =>
    form.register(name, {
      onChange: () => {
        form.clearErrors(name);
        setBannerDismissed(true);
      },
    });

  const setPasswordOpen = (open: boolean) => {
    // changePassword has no input of its own, so it is set rather than reset; the three fields are emptied.
    form.setValue('changePassword', open, { shouldDirty: true });
    setBannerDismissed(true);
    if (open) return;
    for (const name of ['currentPassword', 'newPassword', 'confirmPassword'] as const) form.resetField(name);
  };

  return { form, banner, passwordChanged, onSubmit, onReset, field, setPasswordOpen };
}
