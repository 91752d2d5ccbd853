import { useQuery } from '@tanstack/react-query';
import { rolesQueryOptions } from '@/lib/roles-query';

export function useRoles(enabled: boolean) {
  return useQuery({ ...rolesQueryOptions(), enabled });
}
