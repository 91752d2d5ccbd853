import { QueryClientProvider } from '@tanstack/react-query';
import { CONSOLE_BASE, PERMISSIONS, type SessionUser } from '@lumi/contract';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { routes, screensShown } from './app/route-table';
import { useAuthStore } from './lib/auth-store';
import { createQueryClient } from './lib/query-client';

/**
 * The addresses whose first view the build renders ahead (docs/benchmarks.md, "The first signed-in load"):
 * the signed-in screens an address names on its own, the Metrics screen's Calls tab, and an alert's link
 * (`/alerts?rule=` and the rule's id). The server sends a view for exactly its address, query included, or
 * for a query of one parameter, the view of `?name=*` (any value: the view is the same whatever it is, as
 * `renderFirstView` checks). One whose first view depends on an id in the path or on the values in its query
 * (a call, a range) is left to the app.
 */
export const FIRST_VIEW_ADDRESSES = [
  '/overview',
  '/metrics',
  '/metrics?tab=calls',
  '/config',
  '/messages',
  '/alerts',
  '/alerts?rule=*',
  '/limits',
  '/users',
  '/admin',
  '/profile',
] as const;

/**
 * Who the first view is drawn for: an operator holding every permission, with no name yet. The user's own
 * name and anything their roles hide arrive with the app's first render, which replaces this markup.
 */
const ANY_OPERATOR: SessionUser = {
  id: 0,
  username: '',
  email: '',
  name: '',
  role: '',
  roles: [{ id: 0, name: '', permissions: [...PERMISSIONS] }],
  pending_action: null,
};

/** Two values an address's `*` stands for: a view that differs between them depends on the value. */
const ANY_VALUES = ['1', '2'] as const;

/**
 * A signed-in screen as the app's first render draws it before any data has arrived: the top bar, the
 * screen's heading and its panels' loading frames. Rendered at build time (apps/web/vite-prerender.ts); the
 * server puts it in the page it sends for that address (apps/server/src/lib/console-preload.ts). An address
 * ending in `=*` is rendered with two values, and the build stops if the views differ.
 */
export async function renderFirstView(address: (typeof FIRST_VIEW_ADDRESSES)[number]): Promise<string> {
  if (!address.endsWith('=*')) return renderAddress(address);
  const first = await renderAddress(address.replace(/\*$/, ANY_VALUES[0]));
  const second = await renderAddress(address.replace(/\*$/, ANY_VALUES[1]));
  if (first !== second)
    throw new Error(`The first view of ${address} depends on the value of its parameter.`);
  return first;
}

async function renderAddress(address: string): Promise<string> {
  // A zustand store's snapshot in a server render is its initial state: that is where the session goes.
  Object.assign(useAuthStore.getInitialState(), {
    user: ANY_OPERATOR,
    isAuthenticated: true,
    isLoading: false,
  });
  const router = createMemoryRouter(routes, {
    basename: CONSOLE_BASE,
    initialEntries: [CONSOLE_BASE + address],
  });
  // As main.tsx does before its first render: the screens' code loaded, so they render instead of a fallback.
  await Promise.all(screensShown(router).map((screen) => screen.preload()));
  const markup = renderToString(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  // React marks a boundary it could not render here (an error, or code not loaded yet) for the browser to
  // render instead: such a view would not be the app's first render, so the build stops.
  if (markup.includes('<!--$!-->'))
    throw new Error(`The first view of ${address} did not render on the server.`);
  return markup;
}
