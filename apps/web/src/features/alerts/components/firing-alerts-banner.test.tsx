import type { SessionUser } from '@lumi/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { ALERTS_POLL_MS } from '../api/alert-keys';
import { FiringAlertsBanner } from './firing-alerts-banner';

const withPermissions = (permissions: string[]): SessionUser => ({
  id: 2,
  username: 'ops',
  email: 'ops@example.com',
  name: 'Ops',
  role: 'operator',
  roles: [{ id: 2, name: 'operator', permissions }],
  pending_action: null,
});

const summary = (
  firing: Array<{ id: number; name: string; severity: 'warning' | 'critical'; silenced?: boolean }>,
  pending = 0,
) => ({
  firing: firing.length,
  pending,
  firing_rules: firing.map((rule) => ({
    silenced: false,
    ...rule,
    since: '2026-11-25T08:00:00.000Z',
    summary: `${rule.name} holds`,
  })),
});

const show = () => renderWithProviders(<FiringAlertsBanner />, { path: '/overview' });

describe('FiringAlertsBanner', () => {
  afterEach(() => useAuthStore.getState().clear());

  it('names the firing rules, critical first as the server orders them, and links to the Alerts screen', async () => {
    signIn(withPermissions(['alerts:read']));
    fakeApi({
      'GET /api/alerts/summary': jsonResponse(
        summary(
          [
            { id: 3, name: 'Telegram down', severity: 'critical' },
            { id: 1, name: 'Budget', severity: 'warning' },
          ],
          1,
        ),
      ),
    });
    show();
    const banner = await screen.findByRole('region', { name: /2 alerts firing/ });
    expect(banner).toHaveTextContent('1 pending');
    const items = within(banner).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Critical');
    expect(items[0]).toHaveTextContent('Telegram down holds');
    expect(within(items[0]!).getByRole('link', { name: 'Telegram down' })).toHaveAttribute(
      'href',
      '/alerts?rule=3',
    );
    expect(within(banner).getByRole('link', { name: 'View alerts' })).toHaveAttribute('href', '/alerts');
    expect(banner).not.toHaveTextContent('Silenced');
    expect(within(banner).getByRole('heading')).not.toHaveTextContent('silenced');
  });

  it('says how many firing alerts a silence keeps quiet, and marks each of them', async () => {
    signIn(withPermissions(['alerts:read']));
    fakeApi({
      'GET /api/alerts/summary': jsonResponse(
        summary([
          { id: 3, name: 'Telegram down', severity: 'critical', silenced: true },
          { id: 1, name: 'Budget', severity: 'warning' },
        ]),
      ),
    });
    show();
    const banner = await screen.findByRole('region', { name: '2 alerts firing, 1 silenced' });
    const [muted, loud] = within(banner).getAllByRole('listitem');
    expect(muted).toHaveTextContent('Silenced');
    expect(loud).not.toHaveTextContent('Silenced');
  });

  it('is a quiet line when nothing fires', async () => {
    signIn(withPermissions(['alerts:read']));
    fakeApi({ 'GET /api/alerts/summary': jsonResponse(summary([])) });
    show();
    expect(await screen.findByRole('region', { name: 'Alerts' })).toHaveTextContent('No alerts firing');
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it("keeps the quiet line's space while the summary loads, with nothing for a screen reader", () => {
    signIn(withPermissions(['alerts:read']));
    fakeApi({ 'GET /api/alerts/summary': new Promise<Response>(() => {}) });
    const { container } = show();
    expect(screen.queryByRole('region', { name: /alert/i })).not.toBeInTheDocument();
    expect(container.firstElementChild).toHaveAttribute('aria-hidden', 'true');
    expect(container.firstElementChild).toHaveClass('py-2', 'border');
  });

  it('is not there when the summary fails', async () => {
    signIn(withPermissions(['alerts:read']));
    const { requestsTo } = fakeApi({
      'GET /api/alerts/summary': jsonResponse({ detail: 'Database unavailable' }, 503),
    });
    const { container } = show();
    await vi.waitFor(() => expect(requestsTo('/api/alerts/summary').length).toBeGreaterThan(0));
    await vi.waitFor(() => expect(container).toBeEmptyDOMElement());
  });

  it('keeps showing the last summary when a later poll fails', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      signIn(withPermissions(['alerts:read']));
      const { requestsTo } = fakeApi({
        'GET /api/alerts/summary': [
          jsonResponse(summary([{ id: 3, name: 'Telegram down', severity: 'critical' }])),
          jsonResponse({ detail: 'Database unavailable' }, 503),
        ],
      });
      show();
      expect(await screen.findByRole('region', { name: '1 alert firing' })).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(ALERTS_POLL_MS);
      await vi.waitFor(() => expect(requestsTo('/api/alerts/summary')).toHaveLength(2));
      await vi.advanceTimersByTimeAsync(0);
      expect(screen.getByRole('region', { name: '1 alert firing' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('is not there, and asks nothing, without alerts:read', () => {
    signIn(withPermissions(['metrics:read']));
    const { requests } = fakeApi();
    show();
    expect(screen.queryByRole('region', { name: /alert/i })).not.toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });
});
