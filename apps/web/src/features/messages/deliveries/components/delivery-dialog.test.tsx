import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse, renderWithProviders, toasts } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { MessagesPage } from '../../components/messages-page';
import { delivery, fakeMessagingApi } from '../../test/fake-messaging-api';
import type { DeliveryDetail } from '@lumi/contract';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

const failed = delivery(7, {
  template_name: 'Price Alert',
  channel_name: 'Alerts',
  status: 'failed',
  attempts: 2,
  sent_at: null,
  telegram_message_id: null,
  text: '<b>Pepe</b> is up',
  disable_notification: true,
  pin: true,
  error: 'Bad Request: chat not found',
  data: { token_name: 'Pepe', price_usd: 0.5 },
  attempt_log: [
    {
      attempt: 1,
      outcome: 'rate_limited',
      started_at: '2026-11-22T09:00:00.000Z',
      finished_at: '2026-11-22T09:00:00.120Z',
      duration_ms: 120,
      error_code: 429,
      error: 'Too Many Requests: retry after 3',
      retry_after_seconds: 3,
      part: null,
    },
    {
      attempt: 2,
      outcome: 'failed',
      started_at: '2026-11-22T09:00:04.000Z',
      finished_at: '2026-11-22T09:00:04.080Z',
      duration_ms: 80,
      error_code: 400,
      error: 'Bad Request: chat not found',
      retry_after_seconds: null,
      part: null,
    },
  ],
});

async function openDelivery(deliveries: DeliveryDetail[], routes = {}) {
  const fake = fakeMessagingApi({ deliveries, routes });
  renderWithProviders(<MessagesPage />, { path: '/messages' });
  await userEvent.click(screen.getByRole('tab', { name: 'Deliveries' }));
  const id = deliveries[0]!.id;
  await userEvent.click(await screen.findByRole('button', { name: `Details of delivery ${id}` }));
  const dialog = await screen.findByRole('dialog', { name: `Delivery ${id}` });
  await within(dialog).findByRole('figure', { name: 'Rendered message' });
  return { dialog, ...fake };
}

describe('Delivery details', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('shows the message as Telegram does, its options, its data and every attempt', async () => {
    const { dialog } = await openDelivery([failed]);
    const view = within(dialog);
    expect(dialog).toHaveTextContent('Price Alert v1 to Alerts');
    expect(view.getByRole('figure', { name: 'Rendered message' }).querySelector('strong')).toHaveTextContent(
      'Pepe',
    );
    expect(view.getByText('Notification').nextSibling).toHaveTextContent('Silent');
    expect(view.getByText('Pin').nextSibling).toHaveTextContent('Yes');
    expect(view.getByText('Parse mode').nextSibling).toHaveTextContent('HTML');
    expect(view.getByLabelText('Data the message was rendered with')).toHaveTextContent('"price_usd": 0.5');

    const attempts = within(view.getByRole('list', { name: 'Attempts' })).getAllByRole('listitem');
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toHaveTextContent('Rate limited');
    expect(attempts[0]).toHaveTextContent('Error code:429');
    expect(attempts[0]).toHaveTextContent('Retry after:3 s');
    expect(attempts[0]).toHaveTextContent('Took:120 ms');
    expect(attempts[1]).toHaveTextContent('Failed');
    expect(attempts[1]).toHaveTextContent('Bad Request: chat not found');
    expect(view.queryByRole('button', { name: 'Cancel delivery' })).not.toBeInTheDocument();
  });

  it('shows a message sent in parts with how many went out and the attempt of each part', async () => {
    const attempt = (part: number) => ({
      attempt: 1,
      outcome: 'sent' as const,
      started_at: `2026-11-22T09:00:0${part}.000Z`,
      finished_at: `2026-11-22T09:00:0${part}.100Z`,
      duration_ms: 100,
      error_code: null,
      error: null,
      retry_after_seconds: null,
      part,
    });
    const { dialog } = await openDelivery([
      delivery(8, { status: 'queued', parts: 3, parts_sent: 2, attempt_log: [attempt(1), attempt(2)] }),
    ]);
    const view = within(dialog);
    expect(view.getByText('Sent as').nextSibling).toHaveTextContent('3 messages (2 sent so far)');
    const attempts = within(view.getByRole('list', { name: 'Attempts' })).getAllByRole('listitem');
    expect(attempts.map((item) => item.querySelector('.font-medium')?.textContent)).toEqual([
      'Part 1 of 3, attempt 1',
      'Part 2 of 3, attempt 1',
    ]);
  });

  it('retries a failed delivery after a confirmation', async () => {
    const deliveries = [failed];
    const { dialog, requestsTo } = await openDelivery(deliveries, {
      'POST /deliveries/:id/retry': (_request: unknown, { id }: Record<string, string>) => {
        deliveries[0] = { ...failed, status: 'queued', error: null };
        return jsonResponse({ ...deliveries[0], id: Number(id) });
      },
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Retry delivery' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Send again' }));

    expect(await within(toasts()).findByText('Delivery queued again')).toBeInTheDocument();
    expect(requestsTo('/deliveries/7/retry', 'POST')).toHaveLength(1);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    // The details follow: now queued, it may be cancelled instead.
    expect(await within(dialog).findByRole('button', { name: 'Cancel delivery' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it("shows the server's reason when a cancel comes too late (409)", async () => {
    const deliveries = [delivery(9, { status: 'queued', attempts: 0, sent_at: null })];
    const { dialog } = await openDelivery(deliveries, {
      'POST /deliveries/:id/cancel': () => {
        deliveries[0] = { ...deliveries[0]!, status: 'sent' };
        return jsonResponse(
          { detail: 'Delivery 9 is sent: only a queued delivery can be cancelled', code: 'conflict' },
          409,
        );
      },
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel delivery' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Cancel delivery' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel delivery' }));

    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      'Delivery 9 is sent: only a queued delivery can be cancelled',
    );
    // The two choices say what they do: 'Cancel delivery' beside 'Keep delivery'.
    await userEvent.click(within(confirm).getByRole('button', { name: 'Keep delivery' }));
    // The details follow the delivery to where it is now: sent, so nothing to cancel.
    await waitFor(() =>
      expect(within(dialog).queryByRole('button', { name: 'Cancel delivery' })).not.toBeInTheDocument(),
    );
    expect(within(dialog).getByText('Sent', { selector: 'span' })).toBeInTheDocument();
  });

  it('offers no Cancel or Retry to those who may not send', async () => {
    signIn({
      ...useAuthStore.getState().user!,
      roles: [{ id: 3, name: 'reader', permissions: ['templates:read'] }],
    });
    const { dialog } = await openDelivery([failed]);
    expect(within(dialog).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(within(dialog).getAllByRole('button', { name: 'Close' })).not.toHaveLength(0);
  });
});
