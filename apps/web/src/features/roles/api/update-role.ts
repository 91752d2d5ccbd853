import type { Role, RoleInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rolesKey, usersKey } from '@/lib/roles-query';

/** PUT /roles/{id} */
export function updateRole({ id, input }: { id: number; input: RoleInput }) {
  return api.put<Role>(`/roles/${id}`, input);
}

export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRole,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: rolesKey });
      void queryClient.invalidateQueries({ queryKey: usersKey });
    },
  });
}
