import type { DeliverySummary } from '@lumi/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { failWith, serveMetrics, signInAs, stubLayout } from '../test/metrics-fixtures';
import { OverviewPage } from './overview-page';

const SUMMARY_PATH = 'GET /api/v1/messaging/deliveries/summary';

const summary: DeliverySummary = {
  since: '2026-11-21T09:00:00.000Z',
  queued: 4,
  sending: 0,
  sent: 1280,
  failed: 3,
  cancelled: 0,
  unknown: 1,
  refused: 2,
};

const card = () => within(screen.getByRole('region', { name: 'Deliveries' }));

describe('Deliveries card on the Overview', () => {
  beforeEach(() => stubLayout());
  afterEach(() => {
    vi.restoreAllMocks();
    useAuthStore.getState().clear();
  });

  it('shows the last 24 hours by status, refused beside sent and failed, each a link to the delivery log filtered by it', async () => {
    signInAs(['metrics:read', 'templates:read']);
    serveMetrics().route({ [SUMMARY_PATH]: jsonResponse(summary) });
    renderWithProviders(<OverviewPage />, { path: '/overview' });

    const sent = await card().findByRole('link', { name: /^Sent/ });
    expect(sent).toHaveTextContent((1280).toLocaleString());
    expect(sent).toHaveAttribute('href', '/messages?view=deliveries&status=sent&range=24h');
    expect(card().getByRole('link', { name: /^Failed/ })).toHaveAttribute(
      'href',
      '/messages?view=deliveries&status=failed&range=24h',
    );
    const refused = card().getByRole('link', { name: /^Refused/ });
    expect(refused).toHaveTextContent('2');
    expect(refused).toHaveAttribute('href', '/messages?view=deliveries&status=refused&range=24h');
    expect(card().getByRole('link', { name: /^Queued/ })).toHaveTextContent('4');
    // The rarer states only when there are some.
    expect(card().getByText('Unknown')).toBeInTheDocument();
    expect(card().queryByText('Cancelled')).not.toBeInTheDocument();
  });

  it('loads first, then says when the summary could not be loaded', async () => {
    signInAs(['metrics:read', 'templates:read']);
    serveMetrics().route({ [SUMMARY_PATH]: [failWith(500)] });
    renderWithProviders(<OverviewPage />, { path: '/overview' });

    expect(screen.getByRole('status', { name: 'Loading Deliveries' })).toBeInTheDocument();
    const alert = await card().findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load data');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('is not shown to those who may not read the delivery log', async () => {
    signInAs(['metrics:read']);
    serveMetrics();
    renderWithProviders(<OverviewPage />, { path: '/overview' });
    expect(await screen.findByRole('region', { name: 'Bot Health' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Deliveries' })).not.toBeInTheDocument();
  });
});
