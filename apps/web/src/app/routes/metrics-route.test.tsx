import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveMetrics, signInAs, stubLayout } from '@/features/metrics/test/metrics-fixtures';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse } from '@/test/render-with-providers';
import { MetricsRoute } from './metrics-route';

function renderMetricsRoute() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/metrics', element: <MetricsRoute /> }], {
    initialEntries: ['/metrics'],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('/metrics', () => {
  beforeEach(() => {
    stubLayout();
    signInAs(['metrics:read']);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    useAuthStore.getState().clear();
  });

  it('offers each top chat’s and user’s standing against the limits', async () => {
    const api = serveMetrics();
    api.route({
      'GET /api/limits/subjects/:kind/:subject': (_request, { kind, subject }) =>
        jsonResponse({ kind, subject, rule: null, limits: [] }),
    });
    renderMetricsRoute();
    const chats = await screen.findByRole('table', { name: 'Top chats' });
    await userEvent.click(within(chats).getByRole('button', { name: 'Limits for chat -1001234567890123' }));
    expect(
      await screen.findByRole('dialog', { name: 'Limits for Chat -1001234567890123' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('No limit applies.')).toBeInTheDocument();
    expect(api.requestsTo('/api/limits/subjects/chat/-1001234567890123')).toHaveLength(1);

    const users = screen.getByRole('table', { name: 'Top users' });
    expect(within(users).getByRole('button', { name: 'Limits for user 987654321' })).toBeInTheDocument();
  });
});
