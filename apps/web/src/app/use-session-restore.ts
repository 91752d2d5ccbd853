import { useEffect } from 'react';
import { refreshSession } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth-store';

let restoring: Promise<void> | null = null;

/**
 * Access tokens live in memory only, so a session remembered in storage rehydrates with isLoading true and
 * is restored through the HttpOnly refresh cookie. It runs once per page load: StrictMode runs effects
 * twice, and the server treats a second use of a rotated refresh token as theft and ends the session.
 */
function restoreSession(): Promise<void> {
  restoring ??= (async () => {
    if (!useAuthStore.getState().isLoading) return;
    if (!(await refreshSession())) useAuthStore.getState().clear();
  })();
  return restoring;
}

/** Starts restoring a remembered session when the console mounts; the guards show 'Loading...' meanwhile. */
export function useSessionRestore(): void {
  useEffect(() => {
    void restoreSession();
  }, []);
}
