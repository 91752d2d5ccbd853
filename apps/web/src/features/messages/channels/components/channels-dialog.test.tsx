import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { formatDateTime } from '@/lib/format';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { channel, fakeMessagingApi, topic } from '../../test/fake-messaging-api';
import { MessagesPage } from '../../components/messages-page';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

async function openDialog() {
  renderWithProviders(<MessagesPage />, { path: '/messages' });
  await userEvent.click(screen.getByRole('button', { name: 'Manage Channels' }));
  return screen.getByRole('dialog', { name: 'Manage Channels' });
}

describe('Manage Channels', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('adds a channel after checking its chat id', async () => {
    const channels = [channel(1, { channel_name: 'Alerts' })];
    const { requests } = fakeMessagingApi({
      channels,
      routes: {
        'POST /channels': ({ body }) => {
          channels.push(channel(2, body as object));
          return jsonResponse(channels[1], 201);
        },
      },
    });
    const dialog = await openDialog();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Add Channel' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Channel Name' }), 'Digest');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Chat ID' }), 'not a chat');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Channel' }));
    expect(await within(dialog).findByText(/Chat ID must be a numeric chat id/)).toBeInTheDocument();

    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'Chat ID' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Chat ID' }), '-1001234567890');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Channel' }));

    expect(await within(dialog).findByRole('button', { name: 'Edit Digest' })).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      channel_name: 'Digest',
      chat_id: '-1001234567890',
      description: '',
      enabled: true,
    });
  });

  it("shows the server's answer when a channel in use cannot be deleted", async () => {
    fakeMessagingApi({
      channels: [channel(1, { channel_name: 'Alerts' })],
      routes: {
        'DELETE /channels/1': jsonResponse(
          { detail: "Templates use 'Alerts': Price Alert", code: 'conflict' },
          409,
        ),
      },
    });
    const dialog = await openDialog();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Delete Alerts' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete Channel' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      "Templates use 'Alerts': Price Alert",
    );
  });

  it('disables a channel and adds a topic to it', async () => {
    const { requests } = fakeMessagingApi({
      channels: [channel(1, { channel_name: 'Alerts' })],
      topics: { 1: [topic(4, 1, { topic_name: 'Whales' })] },
      routes: {
        'PUT /channels/1': ({ body }) => jsonResponse(channel(1, body as object)),
        'POST /channels/1/topics': ({ body }) => jsonResponse(topic(5, 1, body as object), 201),
      },
    });
    const dialog = await openDialog();
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Disable Alerts' }));
    await waitFor(() => expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ enabled: false }));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Topics of Alerts' }));
    expect(await within(dialog).findByRole('button', { name: 'Edit Whales' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Topic' }));
    const form = within(dialog).getByRole('form', { name: 'Add topic' });
    await userEvent.type(within(form).getByRole('textbox', { name: 'Topic Name' }), 'Launches');
    await userEvent.type(within(form).getByRole('spinbutton', { name: 'Message Thread ID' }), '12');
    await userEvent.click(within(form).getByRole('button', { name: 'Save Topic' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
        topic_name: 'Launches',
        message_thread_id: 12,
        enabled: true,
      }),
    );
  });

  it('says which channel the bot can no longer post to, and since when', async () => {
    const since = '2026-11-23T14:05:00.000Z';
    fakeMessagingApi({
      channels: [
        channel(1, {
          channel_name: 'Alerts',
          send_problem: 'Forbidden: bot was kicked from the channel chat',
          send_problem_at: since,
        }),
        channel(2, { channel_name: 'Digest' }),
      ],
    });
    const dialog = await openDialog();
    const [alerts, digest] = within(
      await within(dialog).findByRole('list', { name: 'Channels' }),
    ).getAllByRole('listitem');
    expect(alerts).toHaveTextContent(
      `Cannot send here: Forbidden: bot was kicked from the channel chat (since ${formatDateTime(since)})`,
    );
    expect(digest).not.toHaveTextContent('Cannot send here');
  });
});
