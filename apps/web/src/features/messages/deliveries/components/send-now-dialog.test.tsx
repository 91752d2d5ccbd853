import type { DeliveryDetail } from '@lumi/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse, renderWithProviders, toasts } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { MessagesPage } from '../../components/messages-page';
import {
  channel,
  delivery,
  fakeMessagingApi,
  renderedFor,
  template,
  topic,
} from '../../test/fake-messaging-api';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

async function openSendNow(
  answer: (body: Record<string, unknown>) => Response,
  deliveries: DeliveryDetail[] = [],
) {
  const api = fakeMessagingApi({
    channels: [channel(2, { channel_name: 'Alerts' })],
    topics: { 2: [topic(5, 2, { topic_name: 'Whales' })] },
    templates: [template(3, { template_name: 'Price Alert', channel_id: 2, topic_id: 5 })],
    deliveries,
    routes: { 'POST /deliveries': ({ body }) => answer(body as Record<string, unknown>) },
  });
  renderWithProviders(<MessagesPage />, { path: '/messages' });
  await userEvent.click(await screen.findByRole('button', { name: /Price Alert/ }));
  await userEvent.click(screen.getByRole('button', { name: 'Send now' }));
  const dialog = screen.getByRole('dialog', { name: 'Send now' });
  expect(
    await within(dialog).findByText("Send 'Price Alert' to Alerts, topic Whales now?"),
  ).toBeInTheDocument();
  return { api, dialog };
}

const sendButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Send now' });

describe('Send now', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('queues the template with the sample data, then links to the delivery', async () => {
    const queued = delivery(41, {
      template_id: 3,
      template_name: 'Price Alert',
      channel_name: 'Alerts',
      status: 'queued',
      attempts: 0,
      sent_at: null,
      data: { token_name: 'Bonk' },
    });
    const { api, dialog } = await openSendNow(() => jsonResponse(queued, 202), [queued]);
    fireEvent.change(within(dialog).getByLabelText('Sample data (JSON)'), {
      target: { value: '{"token_name": "Bonk"}' },
    });
    // Send waits for the message rendered with the data as it is now.
    expect(sendButton(dialog)).toBeDisabled();
    const message = within(dialog).getByRole('region', { name: 'The message as it will be sent' });
    await waitFor(() => expect(within(message).getByRole('figure')).toHaveTextContent(/Bonk/));
    await waitFor(() => expect(sendButton(dialog)).toBeEnabled());
    await userEvent.click(sendButton(dialog));

    const toast = await within(toasts()).findByText("'Price Alert' queued for Alerts");
    expect(screen.queryByRole('dialog', { name: 'Send now' })).not.toBeInTheDocument();
    const [request] = api.requestsTo('/deliveries', 'POST');
    expect(request?.body).toMatchObject({ template_id: 3, data: { token_name: 'Bonk' } });
    expect((request?.body as { idempotency_key: string }).idempotency_key).toMatch(/^[0-9a-f-]{36}$/);

    // A plain click: sonner's swipe handling asks for pointer capture, which jsdom lacks.
    fireEvent.click(within(toast.closest('li')!).getByRole('button', { name: 'View delivery' }));
    // The delivery's dialog may open first and hide the page from the accessibility tree.
    expect(await screen.findByRole('tab', { name: 'Deliveries', hidden: true })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const details = await screen.findByRole('dialog', { name: 'Delivery 41' });
    expect(await within(details).findByText('Queued', { selector: 'span' })).toBeInTheDocument();
  });

  it('shows where it goes and the data of the variables the template uses, and only those', async () => {
    const { dialog } = await openSendNow(() => jsonResponse({}, 500));
    expect(within(dialog).getByText('Channel').nextElementSibling).toHaveTextContent('Alerts');
    expect(within(dialog).getByText('Topic').nextElementSibling).toHaveTextContent('Whales');
    const data = within(dialog).getByLabelText('Sample data (JSON)');
    expect(JSON.parse((data as HTMLTextAreaElement).value)).toEqual({ token_name: 'Pepe' });
    await waitFor(() => expect(sendButton(dialog)).toBeEnabled());
  });

  it('keeps Send off while the data is not valid JSON, and says why in the error colour', async () => {
    const { api, dialog } = await openSendNow(() => jsonResponse({}, 500));
    await waitFor(() => expect(sendButton(dialog)).toBeEnabled());
    fireEvent.change(within(dialog).getByLabelText('Sample data (JSON)'), {
      target: { value: '{ "announcement": "TEST"' },
    });
    expect(sendButton(dialog)).toBeDisabled();
    expect(within(dialog).getByText(/^Not valid JSON: .*Sending is off until it is fixed/)).toHaveClass(
      'text-destructive',
    );
    await userEvent.click(sendButton(dialog));
    expect(api.requestsTo('/deliveries', 'POST')).toEqual([]);
  });

  it('keeps Send off when Telegram would refuse the rendered message', async () => {
    fakeMessagingApi({
      channels: [channel(2, { channel_name: 'Alerts' })],
      templates: [template(3, { template_name: 'Price Alert', channel_id: 2 })],
      routes: {
        'POST /templates/3/render': () =>
          jsonResponse({ ...renderedFor('<b>x', {}), success: false, error: '<b> is never closed' }),
      },
    });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await userEvent.click(await screen.findByRole('button', { name: /Price Alert/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Send now' }));
    const dialog = screen.getByRole('dialog', { name: 'Send now' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This message cannot be sent<b> is never closed',
    );
    expect(sendButton(dialog)).toBeDisabled();
  });

  it('shows why the server would not queue it (422), links to the refused delivery and keeps the dialog open', async () => {
    const { dialog } = await openSendNow(() =>
      jsonResponse(
        {
          detail: 'Not queued: Unclosed tag <b> at offset 0',
          code: 'validation_failed',
          errors: [{ path: 'data', message: 'Not queued: Unclosed tag <b> at offset 0' }],
          delivery_id: 77,
          request_id: 'r1',
        },
        422,
      ),
    );
    await waitFor(() => expect(sendButton(dialog)).toBeEnabled());
    await userEvent.click(sendButton(dialog));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Not sent');
    // The server's detail repeats its one field error: said once.
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Not queued: Unclosed tag <b> at offset 0']);
    expect(within(alert).getByRole('button', { name: 'View the refused delivery' })).toBeInTheDocument();
    expect(within(toasts()).queryByText(/queued/)).not.toBeInTheDocument();
  });
});
