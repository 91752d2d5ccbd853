import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Toaster } from 'sonner';

/**
 * Renders a screen at an address with a query string (`/limits?view=denials&chat_id=-100123`), with a fresh
 * query client (no retries) and toasts in a polite region named Notifications, as the app's; the router
 * tells where the user ended up.
 */
export function renderAt(ui: ReactElement, entry: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      { path: entry.split('?')[0]!, element: ui },
      { path: '*', element: <p>Elsewhere</p> },
    ],
    { initialEntries: [entry] },
  );
  render(<Toaster containerAriaLabel="Notifications" />);
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** The toasts shown so far. */
export function toasts() {
  return screen.getByRole('region', { name: /Notifications/ });
}
