import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rolesKey } from '@/lib/roles-query';

/** DELETE /roles/{id}: the server refuses (409) while the role is still assigned to users. */
export function deleteRole(id: number) {
  return api.delete<{ ok: true }>(`/roles/${id}`);
}

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRole,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: rolesKey }),
  });
}
