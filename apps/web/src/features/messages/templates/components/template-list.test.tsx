import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { renderWithProviders } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { channel, fakeMessagingApi, template } from '../../test/fake-messaging-api';
import { MessagesPage } from '../../components/messages-page';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

const templates = [
  template(1, { template_name: 'Price Alert', message_type: 'alert', channel_id: 1, version: 3 }),
  template(2, { template_name: 'Morning Digest', message_type: 'digest', channel_id: 2, enabled: false }),
  template(3, { template_name: 'Whale alert', message_type: 'alert', channel_id: 2 }),
];

function names(): string[] {
  const list = screen.queryByRole('list', { name: 'Templates' });
  if (!list) return [];
  return within(list)
    .getAllByRole('button')
    .map((item) => item.querySelector('span')?.textContent ?? '');
}

describe('Template list', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('shows each template with its type, version and a Disabled mark', async () => {
    fakeMessagingApi({ channels: [channel(1), channel(2)], templates });
    renderWithProviders(<MessagesPage />, { path: '/messages' });

    expect(screen.getByRole('heading', { name: 'Message Templates' })).toBeInTheDocument();
    const price = (await screen.findByText('Price Alert')).closest('button')!;
    expect(price).toHaveTextContent('alert');
    expect(price).toHaveTextContent('v3');
    expect(price).not.toHaveTextContent('Disabled');
    expect(screen.getByText('Morning Digest').closest('button')).toHaveTextContent('Disabled');
    expect(screen.getByText('Select a template to edit or create a new one')).toBeInTheDocument();
  });

  it('searches by name, case-insensitively, without asking the server', async () => {
    const { requests } = fakeMessagingApi({ channels: [channel(1), channel(2)], templates });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await screen.findByText('Price Alert');
    const listRequests = () => requests.filter((r) => r.path === '/templates').length;
    const before = listRequests();

    await userEvent.type(screen.getByPlaceholderText('Search templates...'), 'ALERT');
    expect(names()).toEqual(['Price Alert', 'Whale alert']);
    expect(listRequests()).toBe(before);

    await userEvent.clear(screen.getByPlaceholderText('Search templates...'));
    await userEvent.type(screen.getByPlaceholderText('Search templates...'), 'nothing like it');
    expect(screen.getByText('No templates found')).toBeInTheDocument();
  });

  it('filters by channel and by type', async () => {
    const { requests } = fakeMessagingApi({
      channels: [channel(1, { channel_name: 'Alerts' }), channel(2, { channel_name: 'Digest' })],
      templates,
    });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await screen.findByText('Price Alert');

    const channelFilter = screen.getByRole('combobox', { name: 'Filter by channel' });
    expect(
      within(channelFilter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Channels', 'Alerts', 'Digest']);
    await userEvent.selectOptions(channelFilter, 'Digest');
    await waitFor(() => expect(names()).toEqual(['Morning Digest', 'Whale alert']));
    expect(requests.at(-1)?.query.get('channel_id')).toBe('2');

    const typeFilter = screen.getByRole('combobox', { name: 'Filter by type' });
    expect(
      within(typeFilter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Types', 'dashboard', 'alert', 'digest', 'custom']);
    await userEvent.selectOptions(typeFilter, 'alert');
    await waitFor(() => expect(names()).toEqual(['Whale alert']));
    expect(requests.at(-1)?.query.get('message_type')).toBe('alert');

    await userEvent.selectOptions(channelFilter, 'All Channels');
    await waitFor(() => expect(names()).toEqual(['Price Alert', 'Whale alert']));
  });

  it("shows 'No templates found' when there are none", async () => {
    fakeMessagingApi({ templates: [] });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    expect(await screen.findByText('No templates found')).toBeInTheDocument();
  });

  it('denies access without templates:read', () => {
    signIn({
      id: 5,
      username: 'vic',
      email: 'vic@example.com',
      name: 'Vic',
      role: 'metrics',
      roles: [{ id: 5, name: 'metrics', permissions: ['metrics:read'] }],
      pending_action: null,
    });
    fakeMessagingApi({});
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    expect(screen.getByRole('alert')).toHaveTextContent('Access Denied');
  });
});
