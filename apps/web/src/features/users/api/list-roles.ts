import type { Role } from '@lumi/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { rolesQueryOptions } from '@/lib/roles-query';

/** The roles offered in the user dialogs. Spec section 8: a load failure is only logged, the list stays empty. */
export function useRoleOptions(enabled: boolean): Role[] {
  const { data, error } = useQuery({ ...rolesQueryOptions(), enabled });
  useEffect(() => {
    if (error) console.error('Failed to load roles', error);
  }, [error]);
  return data ?? [];
}
