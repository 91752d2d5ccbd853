import type { Location } from 'react-router';

export const HOME_PATH = '/overview';

/** The state the protected routes pass to /login so a visitor returns where they were headed (spec section 2). */
export interface SignInState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

/** Where to go after signing in: the remembered origin, else the overview. Never back to /login itself. */
export function signInTarget(state: unknown): string {
  const from = (state as SignInState | null)?.from;
  if (!from || typeof from.pathname !== 'string' || from.pathname === '/login') return HOME_PATH;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
