import type { Profile, UpdateProfileInput } from '@lumi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth-store';
import { profileQueryKey } from './get-profile';

/** PUT /auth/profile with only the fields that changed (spec section 7). */
export function updateProfile(changes: UpdateProfileInput): Promise<Profile> {
  return api.put<Profile>('/auth/profile', changes);
}

/** Saves the profile and updates the stored current user, so the top bar shows the new values at once. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => {
      queryClient.setQueryData(profileQueryKey, profile);
      const { user, setUser } = useAuthStore.getState();
      if (user) setUser({ ...user, username: profile.username, email: profile.email, name: profile.name });
    },
  });
}
