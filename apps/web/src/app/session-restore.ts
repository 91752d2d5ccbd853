import { refreshSession } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth-store';

let restoring: Promise<void> | null = null;

/**
 * Access tokens live in memory only, so a session remembered in storage rehydrates with isLoading true and
 * is restored through the HttpOnly refresh cookie, once per page load (the server tolerates a second use of a
 * rotated refresh token only briefly). main.tsx starts it before the first render, and the screens render
 * meanwhile: the api client holds their calls until it is done.
 */
export function restoreSession(): Promise<void> {
  restoring ??= (async () => {
    if (!useAuthStore.getState().isLoading) return;
    const outcome = await refreshSession();
    // Without an answer the remembered user stays; the next call's 401 refreshes again.
    if (outcome === 'refused') useAuthStore.getState().clear();
    else if (outcome === 'unreachable') useAuthStore.getState().setLoading(false);
  })();
  return restoring;
}
