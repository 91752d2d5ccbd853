import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLocation } from 'react-router';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { MessagesPage } from '../../components/messages-page';
import { channel, delivery, fakeMessagingApi, template } from '../../test/fake-messaging-api';
import { DELIVERIES_POLL_MS } from '../api/delivery-keys';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

/** The query string the user would see in the address bar. */
function Search() {
  return <p data-testid="search">{useLocation().search}</p>;
}

async function openDeliveries() {
  renderWithProviders(
    <>
      <MessagesPage />
      <Search />
    </>,
    { path: '/messages' },
  );
  await userEvent.click(screen.getByRole('tab', { name: 'Deliveries' }));
}

const search = () => screen.getByTestId('search');

describe('Deliveries view', () => {
  beforeEach(() => signIn());
  afterEach(() => {
    vi.useRealTimers();
    useAuthStore.getState().clear();
  });

  it('lists deliveries, keeps its filters in the URL and loads older pages', async () => {
    const { requestsTo } = fakeMessagingApi({
      channels: [channel(1, { channel_name: 'Alerts' }), channel(2, { channel_name: 'Digest' })],
      templates: [template(1, { template_name: 'Price Alert' }), template(2, { template_name: 'Daily' })],
      deliveryPageSize: 2,
      deliveries: [
        delivery(3, { template_name: 'Price Alert', status: 'queued', attempts: 0, sent_at: null }),
        delivery(2, {
          template_name: 'Daily',
          template_id: 2,
          status: 'failed',
          attempts: 3,
          error: 'Forbidden: bot was kicked from the channel chat',
          channel_id: 2,
          channel_name: 'Digest',
          topic_id: 9,
          topic_name: 'Price alerts',
          message_thread_id: 42,
        }),
        delivery(1, { template_name: 'Price Alert' }),
      ],
    });
    await openDeliveries();
    expect(search()).toHaveTextContent('?view=deliveries');

    const table = await screen.findByRole('table', { name: 'Deliveries' });
    const rows = () => within(table).getAllByRole('row').slice(1);
    expect(rows()).toHaveLength(2);
    expect(rows()[0]).toHaveTextContent('Price Alert');
    expect(rows()[0]).toHaveTextContent('Queued');
    expect(rows()[1]).toHaveTextContent('Failed');
    expect(rows()[1]).toHaveTextContent('Digest');
    expect(rows()[1]).toHaveTextContent('Price alerts (thread 42)');
    expect(rows()[1]).toHaveTextContent('Forbidden: bot was kicked from the channel chat');

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(table).findByText('Sent')).toBeInTheDocument();
    expect(rows()).toHaveLength(3);
    expect(requestsTo('/deliveries').at(-1)?.query.get('cursor')).toBe('2');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Failed');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Channel' }), 'Digest');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Template' }), 'Daily');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Time range' }), 'Last 24 hours');
    expect(search()).toHaveTextContent('?view=deliveries&status=failed&channel=2&template=2&range=24h');
    const last = requestsTo('/deliveries').at(-1)!;
    expect(Object.fromEntries(last.query)).toMatchObject({
      status: 'failed',
      channel_id: '2',
      template_id: '2',
    });
    // 24 hours back from the moment of the request.
    expect(Date.now() - Date.parse(last.query.get('from')!)).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(Date.now() - Date.parse(last.query.get('from')!)).toBeLessThan(24 * 3_600_000 + 60_000);
    expect(await screen.findByText('Showing 1 delivery')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(search()).toHaveTextContent(/^\?view=deliveries$/);

    await userEvent.click(screen.getByRole('tab', { name: 'Templates' }));
    expect(search()).toBeEmptyDOMElement();
  });

  it('says so when there are none, or none match', async () => {
    fakeMessagingApi({ deliveries: [] });
    await openDeliveries();
    expect(
      await screen.findByText(
        'No deliveries yet. Messages the bot, a schedule or Send now posts appear here.',
      ),
    ).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Unknown');
    expect(await screen.findByText('No deliveries match these filters')).toBeInTheDocument();
  });

  it("shows the server's reason when the log does not load, and tries again", async () => {
    fakeMessagingApi({
      routes: {
        'GET /deliveries': [
          jsonResponse({ detail: 'Database unavailable', code: 'internal' }, 503),
          jsonResponse({ deliveries: [delivery(1)], next_cursor: null }),
        ],
      },
    });
    await openDeliveries();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load deliveries');
    expect(alert).toHaveTextContent('Database unavailable');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Deliveries' })).toBeInTheDocument();
  });

  it('refreshes itself while it is open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const deliveries = [delivery(1, { template_name: 'Price Alert' })];
    fakeMessagingApi({ deliveries });
    await openDeliveries();
    expect(await screen.findByText('Showing 1 delivery')).toBeInTheDocument();

    deliveries.unshift(delivery(2, { template_name: 'Fresh News', status: 'sending', sent_at: null }));
    await act(() => vi.advanceTimersByTimeAsync(DELIVERIES_POLL_MS));
    expect(await screen.findByText('Fresh News')).toBeInTheDocument();
    expect(screen.getByText('Showing 2 deliveries')).toBeInTheDocument();
  });
});
