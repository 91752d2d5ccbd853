import type { Role, UpdateUserInput } from '@lumi/contract';
import { useController, useFormContext } from 'react-hook-form';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { RoleCheckboxes } from './role-checkboxes';

/** What the Create New User and Edit User forms have in common; each dialog provides its form. */
type UserDetails = Pick<UpdateUserInput, 'email' | 'name' | 'roles'>;

export function UserContactFields() {
  const {
    register,
    formState: { errors },
  } = useFormContext<UserDetails>();
  return (
    <>
      <Field label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="off" {...register('email')} />
      </Field>
      <Field label="Full Name" error={errors.name?.message}>
        <Input autoComplete="off" {...register('name')} />
      </Field>
    </>
  );
}

export function UserRolesField({ roles }: { roles: Role[] }) {
  const { field, fieldState } = useController<UserDetails, 'roles'>({ name: 'roles' });
  return (
    <RoleCheckboxes
      roles={roles}
      value={field.value}
      onChange={field.onChange}
      error={fieldState.error?.message}
    />
  );
}
