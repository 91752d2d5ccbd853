import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { fakeMessagingApi, template } from '../../test/fake-messaging-api';
import { MessagesPage } from '../../components/messages-page';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

const sent = {
  id: 1,
  template_id: 3,
  template_version: 1,
  user: 'admin',
  channel_id: 1,
  channel_name: 'Alerts',
  chat_id: '@alerts',
  topic_id: null,
  message_thread_id: null,
  success: true,
  telegram_message_id: 77,
  pinned: false,
  error: null,
  sent_at: '2026-11-22T09:00:00.000Z',
};

async function openTest(answer: () => Response) {
  let history: unknown[] = [];
  const api = fakeMessagingApi({
    templates: [template(3, { template_name: 'Saved' })],
    routes: {
      'POST /templates/3/test': () => {
        history = [sent];
        return answer();
      },
      'GET /templates/3/test-history': () => jsonResponse(history),
    },
  });
  renderWithProviders(<MessagesPage />, { path: '/messages' });
  await userEvent.click(await screen.findByRole('button', { name: /Saved/ }));
  await userEvent.click(screen.getByRole('button', { name: 'Test', pressed: false }));
  return api;
}

describe('Test panel', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('sends the sample data and shows the message id and the history', async () => {
    const { requests } = await openTest(() =>
      jsonResponse({ success: true, telegram_message_id: 77, pinned: false }),
    );
    expect(await screen.findByText('No test messages sent yet')).toBeInTheDocument();
    expect(screen.getByText("The message is sent to the template's configured channel.")).toBeInTheDocument();

    await userEvent.click(await screen.findByRole('button', { name: 'Send Test Message' }));
    expect(await screen.findByText('Test message sent successfully! Message ID: 77')).toBeInTheDocument();
    // The template uses token_name only, so that is the data it is tried with.
    expect(requests.find((r) => r.path === '/templates/3/test')?.body).toEqual({
      data: { token_name: 'Pepe' },
    });
    const history = await screen.findByRole('list', { name: 'Test history' });
    expect(history).toHaveTextContent('Sent');
    expect(history).toHaveTextContent('Message ID: 77');
  });

  it('sends nothing while the sample data is not valid JSON', async () => {
    const { requests } = await openTest(() =>
      jsonResponse({ success: true, telegram_message_id: 77, pinned: false }),
    );
    const button = await screen.findByRole('button', { name: 'Send Test Message' });
    fireEvent.change(screen.getByRole('textbox', { name: 'Sample data (JSON)' }), {
      target: { value: '{ "token_name": "TEST"' },
    });
    expect(button).toBeDisabled();
    await userEvent.click(button);
    expect(requests.filter((r) => r.path === '/templates/3/test')).toEqual([]);
  });

  it.each([
    [
      'the response error',
      () =>
        jsonResponse({ success: false, telegram_message_id: null, pinned: false, error: 'chat not found' }),
      'chat not found',
    ],
    [
      'the server detail',
      () => jsonResponse({ detail: 'You may not send', code: 'forbidden' }, 403),
      'You may not send',
    ],
    ['a fallback', () => new Response('oops', { status: 502 }), 'Failed to send test message'],
  ])('shows %s when sending fails', async (_name, answer, message) => {
    await openTest(answer);
    await userEvent.click(await screen.findByRole('button', { name: 'Send Test Message' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });
});
