import { createBrowserRouter } from 'react-router';
import { CONSOLE_BASE } from '@lumi/contract';
import { LoginPage, routes, screensShown } from './route-table';

export const router = createBrowserRouter(routes, { basename: CONSOLE_BASE });

/**
 * Loads the code of the screens the first address shows, for main.tsx to await before the first render, so
 * they render at once instead of after a fallback (lazy-screen.tsx). The server has already asked for these
 * chunks beside the entry script (apps/server/src/lib/console-preload.ts), so this waits for their download,
 * not for another round trip. A visitor without a session is shown the sign-in page, whatever the address.
 */
export function loadFirstScreens(signedIn: boolean): Promise<unknown> {
  const screens = signedIn ? screensShown(router) : [LoginPage];
  // A chunk that fails to load fails again when the screen renders, behind its error boundary.
  return Promise.all(screens.map((screen) => screen.preload().catch(() => undefined)));
}
