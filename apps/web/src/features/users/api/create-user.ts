import type { CreateUserInput, User } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rolesKey } from '@/lib/roles-query';
import { usersKeys } from './list-users';

/** POST /users */
export function createUser(input: CreateUserInput) {
  return api.post<User>('/users', input);
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: usersKeys.all });
      // Each role shows how many users hold it.
      void queryClient.invalidateQueries({ queryKey: rolesKey });
    },
  });
}
