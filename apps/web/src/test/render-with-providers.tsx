import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { Toaster } from '@/app/toaster';

/** Shows where a navigation ended up, so tests can assert on the path a user would see. */
function CurrentPath() {
  return <p data-testid="current-path">{useLocation().pathname}</p>;
}

/**
 * Renders a screen at `path` with a fresh query client (no retries), an in-memory router and the app's
 * toasts; any other path renders its own name, so a redirect is visible to the test.
 */
export function renderWithProviders(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      // A path may carry a query (`/messages?view=deliveries`): the route matches the path alone.
      { path: path.split('?')[0], element: ui },
      { path: '*', element: <CurrentPath /> },
    ],
    { initialEntries: [path] },
  );
  // The toasts sit in a container of their own, as the app's do beside the router, so a screen that
  // renders nothing still leaves its own container empty.
  render(<Toaster />);
  return render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

/** The toasts shown so far (sonner's polite live region). */
export function toasts() {
  return screen.getByRole('region', { name: /Notifications/ });
}

/** A fetch answer with a JSON body. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
