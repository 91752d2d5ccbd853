import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { MetricsPage } from '../components/metrics-page';

function Search() {
  return <p data-testid="search">{useLocation().search}</p>;
}

/** The query string of the rendered screen's URL, as the address bar would show it. */
export const search = () => new URLSearchParams(screen.getByTestId('search').textContent ?? '');

/** The Metrics screen at `url`, with the URL's query string shown, as a reload or a shared link opens it. */
export function renderMetricsAt(url: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/metrics',
        element: (
          <>
            <MetricsPage />
            <Search />
          </>
        ),
      },
    ],
    { initialEntries: [url] },
  );
  return render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}
