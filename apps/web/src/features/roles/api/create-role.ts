import type { Role, RoleInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rolesKey } from '@/lib/roles-query';

/** POST /roles */
export function createRole(input: RoleInput) {
  return api.post<Role>('/roles', input);
}

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRole,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: rolesKey }),
  });
}
