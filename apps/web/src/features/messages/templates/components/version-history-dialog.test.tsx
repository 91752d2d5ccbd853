import type { TemplateVersion } from '@lumi/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { channel, fakeMessagingApi, template } from '../../test/fake-messaging-api';
import { MessagesPage } from '../../components/messages-page';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

const current = template(3, {
  template_name: 'Alert',
  version: 2,
  template_content: 'Hi\nNew line',
  enabled: false,
});
const { id: _id, version: _v, created_at: _c, updated_at: _u, updated_by: _b, ...snapshot } = current;
const versions: TemplateVersion[] = [
  {
    version: 2,
    created_at: '2026-11-22T10:00:00.000Z',
    updated_by: 'ann',
    action: 'updated',
    changes: ['template_content', 'enabled'],
    restored_from: null,
    snapshot,
  },
  {
    version: 1,
    created_at: '2026-11-22T09:00:00.000Z',
    updated_by: 'admin',
    action: 'created',
    changes: [],
    restored_from: null,
    snapshot: { ...snapshot, template_content: 'Hi\nOld line', enabled: true },
  },
];

describe('Version history', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('compares an older version with the current one and restores it after confirmation', async () => {
    const restored = template(3, { template_name: 'Alert', version: 3, template_content: 'Hi\nOld line' });
    const { requests } = fakeMessagingApi({
      channels: [channel(1, { channel_name: 'Alerts' })],
      templates: [current],
      routes: {
        'GET /templates/3/versions': jsonResponse(versions),
        'POST /templates/3/versions/1/restore': jsonResponse(restored),
      },
    });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await userEvent.click(await screen.findByRole('button', { name: /Alert/ }));
    await userEvent.click(screen.getByRole('button', { name: 'History' }));

    const dialog = screen.getByRole('dialog', { name: 'Version History' });
    expect(await within(dialog).findByText('Changed Content, Enabled')).toBeInTheDocument();
    expect(within(dialog).getByText('Version 1 compared with the current version 2')).toBeInTheDocument();
    const settings = within(dialog).getByRole('region', { name: 'Settings changes' });
    expect(within(settings).getByRole('row', { name: 'Enabled Yes No' })).toBeInTheDocument();
    const content = within(dialog).getByRole('region', { name: 'Content changes' });
    expect(content.querySelector('del')).toHaveTextContent('removed: Old line');
    expect(content.querySelector('ins')).toHaveTextContent('added: New line');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Restore version 1' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Restore version 1?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Restore' }));

    expect(await screen.findByText('Version 3')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Template Content' })).toHaveValue('Hi\nOld line');
    expect(requests.find((r) => r.path.endsWith('/restore'))?.body).toEqual({ version: 2 });
  });

  it("opens a change marker's link on the template's history at the version it names", async () => {
    fakeMessagingApi({
      channels: [channel(1, { channel_name: 'Alerts' })],
      templates: [current],
      routes: { 'GET /templates/3/versions': jsonResponse(versions) },
    });
    renderWithProviders(<MessagesPage />, { path: '/messages?search=Alert&template=3&version=2' });

    const dialog = await screen.findByRole('dialog', { name: 'Version History' });
    expect(await within(dialog).findByText('Version 2 is the current version')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The editor stays on the linked template.
    expect(screen.getByRole('textbox', { name: 'Template Content' })).toHaveValue('Hi\nNew line');
  });
});
