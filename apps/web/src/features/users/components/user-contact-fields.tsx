import type { UpdateUserInput } from '@lumi/contract';
import { useFormContext } from 'react-hook-form';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

/** Email and full name, as the Create New User and Edit User forms both ask for them. */
export function UserContactFields() {
  const {
    register,
    formState: { errors },
  } = useFormContext<Pick<UpdateUserInput, 'email' | 'name'>>();
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
