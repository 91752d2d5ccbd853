import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rolesKey } from '@/lib/roles-query';
import { usersKeys } from './list-users';

/** DELETE /users/{id} */
export function deleteUser(id: number) {
  return api.delete<{ ok: true }>(`/users/${id}`);
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: usersKeys.all });
      void queryClient.invalidateQueries({ queryKey: rolesKey });
    },
  });
}
