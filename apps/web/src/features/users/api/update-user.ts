import type { UpdateUserInput, User } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rolesKey } from '@/lib/roles-query';
import { usersKeys } from './list-users';

/** PUT /users/{id} */
export function updateUser({ id, input }: { id: number; input: UpdateUserInput }) {
  return api.put<User>(`/users/${id}`, input);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: usersKeys.all });
      void queryClient.invalidateQueries({ queryKey: rolesKey });
    },
  });
}
