import type { ConfigItem } from '@lumi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi, type FakeRoute } from '@/test/fake-api';
import { jsonResponse } from '@/test/render-with-providers';
import { configItem, signInWith } from '../test/fixtures';
import { ConfigPage } from './config-page';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

const long = configItem({
  id: 4,
  name: 'Chatty',
  content: 'A'.repeat(60),
  tags: ['one', 'two', 'three', 'four', 'five'],
  priority: 9,
  is_active: false,
  version: 4,
});

/** Answers every domain's list with `items`, and a save or a delete of an item with `other`. */
function serve(items: ConfigItem[], other: FakeRoute = jsonResponse({ ok: true })) {
  return fakeApi({
    'GET /api/admin/api/config/:domain': jsonResponse(items),
    'PUT /api/admin/api/config/:domain/:id': other,
    'DELETE /api/admin/api/config/:domain/:id': other,
  });
}

function renderAt(url: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter([{ path: '/config', element: <ConfigPage /> }], {
    initialEntries: [url],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('ConfigPage', () => {
  afterEach(() => {
    useAuthStore.setState({ user: null, accessToken: null, isAuthenticated: false });
  });

  it('denies a user with neither config permission', () => {
    signInWith(['metrics:read']);
    const api = fakeApi();
    renderAt('/config');
    const denied = screen.getByRole('alert');
    expect(within(denied).getByRole('heading')).toHaveTextContent('Access Denied');
    expect(denied).toHaveTextContent(
      "You don't have permission to access the configuration panel. Please contact an administrator.",
    );
    expect(api.requests).toEqual([]);
  });

  it('opens the tab named in the URL and lists its items', async () => {
    signInWith(['config:read', 'config:write']);
    const api = serve([configItem(), long]);
    renderAt('/config?tab=quirks');

    expect(screen.getByRole('heading', { level: 1, name: 'Configuration Management' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Quirks' })).toHaveAttribute('aria-selected', 'true');
    const row = (await screen.findByText('Chatty')).closest('tr')!;
    expect(api.requests[0]?.path).toBe('/api/admin/api/config/quirks');
    expect(row).toHaveTextContent(`${'A'.repeat(50)}...`);
    expect(row).not.toHaveTextContent('A'.repeat(51));
    expect(within(row).getAllByText('one')[0]).toBeInTheDocument();
    expect(within(row).queryByText('three')).not.toBeInTheDocument();
    expect(row).toHaveTextContent('+3');
    expect(row).toHaveTextContent('9');
  });

  it('keeps the selected tab in the URL', async () => {
    signInWith(['config:read']);
    serve([]);
    const router = renderAt('/config');
    expect(await screen.findByText('No personalities yet')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Moods' }));
    expect(router.state.location.search).toBe('?tab=moods');
    expect(await screen.findByText('No moods yet')).toBeInTheDocument();
  });

  it('shows the list read-only with config:read alone', async () => {
    signInWith(['config:read']);
    serve([configItem(), long]);
    renderAt('/config?tab=moods');

    const row = (await screen.findByText('Chatty')).closest('tr')!;
    expect(row).toHaveTextContent('Inactive');
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Item' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit|Delete|History/ })).not.toBeInTheDocument();
  });

  it('opens any item read-only for a reader, with the whole content and only Close', async () => {
    signInWith(['config:read']);
    const api = serve([configItem(), long]);
    renderAt('/config?tab=moods');

    await userEvent.click(await screen.findByRole('button', { name: 'View Chatty' }));
    const dialog = screen.getByRole('dialog', { name: 'Chatty' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAttribute('readonly');
    const content = within(dialog).getByLabelText('Content (text)');
    expect(content).toHaveValue('A'.repeat(60));
    expect(content).toHaveAttribute('readonly');
    expect(within(dialog).getByRole('radio', { name: 'Text' })).toBeDisabled();
    expect(within(dialog).getByRole('textbox', { name: 'Tags' })).toHaveValue('one, two, three, four, five');
    expect(within(dialog).getByRole('textbox', { name: 'Priority' })).toHaveValue('9');
    expect(within(dialog).getByRole('checkbox', { name: /Active/ })).toBeDisabled();
    expect(
      within(dialog).queryByRole('button', { name: /Save|Create|Delete|Restore/ }),
    ).not.toBeInTheDocument();

    await userEvent.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'View Cheerful' }));
    expect(
      within(screen.getByRole('dialog', { name: 'Cheerful' })).getByLabelText('Content (JSON)'),
    ).toHaveValue('{\n  "tone": "warm"\n}');
    expect(api.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('starts Add Item in JSON mode where the domain holds JSON, and in text mode elsewhere', async () => {
    signInWith(['config:read', 'config:write']);
    fakeApi({
      'GET /api/admin/api/config/:domain': (_request, { domain }) =>
        jsonResponse(
          domain === 'moods'
            ? [configItem(), configItem({ id: 2, name: 'Calm', content: { tone: 'calm' } }), long]
            : [long],
        ),
    });
    renderAt('/config?tab=moods');
    await screen.findByText('Chatty');
    await userEvent.click(screen.getByRole('button', { name: 'Add Item' }));
    let dialog = screen.getByRole('dialog', { name: 'Add Item' });
    expect(within(dialog).getByRole('radio', { name: 'JSON' })).toBeChecked();
    expect(within(dialog).getByLabelText('Content (JSON)')).toHaveAttribute('data-language', 'json');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('tab', { name: 'Catchphrases' }));
    await userEvent.click(
      within(await screen.findByRole('tabpanel', { name: 'Catchphrases' })).getByRole('button', {
        name: 'Add Item',
      }),
    );
    dialog = screen.getByRole('dialog', { name: 'Add Item' });
    expect(within(dialog).getByRole('radio', { name: 'Text' })).toBeChecked();
  });

  it('filters by name, tag and active state, keeping the filters in the URL', async () => {
    signInWith(['config:read']);
    serve([configItem(), long, configItem({ id: 5, name: 'Cheeky', tags: ['two'] })]);
    const router = renderAt('/config?tab=moods&active=inactive');

    expect(await screen.findByText('Chatty')).toBeInTheDocument();
    expect(screen.queryByText('Cheerful')).not.toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Status'), 'all');
    await userEvent.selectOptions(screen.getByLabelText('Tag'), 'two');
    expect(screen.getByText('Cheeky')).toBeInTheDocument();
    expect(screen.queryByText('Cheerful')).not.toBeInTheDocument();

    await userEvent.type(screen.getByRole('searchbox'), 'chat');
    expect(screen.queryByText('Cheeky')).not.toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('chat');
    expect(new URLSearchParams(router.state.location.search).get('tag')).toBe('two');
  });

  it('toggles an item with a PUT carrying its version, then reloads the list', async () => {
    signInWith(['config:read', 'config:write']);
    const api = serve([long], jsonResponse({ ...long, is_active: true, version: 5 }));
    renderAt('/config?tab=moods');

    await userEvent.click(await screen.findByRole('switch', { name: 'Active: Chatty' }));
    await waitFor(() => expect(api.requests.filter((r) => r.method === 'GET')).toHaveLength(2));
    const put = api.requests.find((r) => r.method === 'PUT')!;
    expect(put.path).toBe('/api/admin/api/config/moods/4');
    expect(put.body).toMatchObject({ is_active: true, version: 4, name: 'Chatty', priority: 9 });
  });

  it('asks before deleting and shows a failure that can be dismissed', async () => {
    signInWith(['config:read', 'config:write']);
    const api = serve(
      [long],
      jsonResponse({ detail: 'bob changed it first', code: 'conflict', request_id: '1' }, 409),
    );
    renderAt('/config?tab=moods');

    await userEvent.click(await screen.findByRole('button', { name: 'Delete Chatty' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete this item?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('bob changed it first');
    expect(api.requests.find((r) => r.method === 'DELETE')?.query.toString()).toBe('version=4');
    await userEvent.click(within(failure).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows 'Failed to load {domain}' with Retry", async () => {
    signInWith(['config:read']);
    fakeApi({ 'GET /api/admin/api/config/:domain': new Response('oops', { status: 500 }) });
    renderAt('/config?tab=moods');

    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('Failed to load moods');
    expect(failure).toHaveTextContent('Failed to fetch configuration');
    expect(within(failure).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('keeps the debug information collapsed and never shows a token', async () => {
    signInWith(['config:read']);
    useAuthStore.setState({ accessToken: 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE3NjAwMDAwMDB9.c2lnbmF0dXJl' });
    serve([]);
    renderAt('/config');

    expect(screen.getByText(/Signed in as olga/)).toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Debug information' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('Permissions')).not.toBeInTheDocument();

    await userEvent.click(toggle);
    expect(screen.getByText('Permissions').nextElementSibling).toHaveTextContent('config:read');
    expect(screen.getByText(/In memory, expires/)).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('eyJ');
  });

  it("opens the history and revision a change marker's link names, for a reader too, and Escape closes it", async () => {
    signInWith(['config:read']);
    fakeApi({
      'GET /api/admin/api/config/:domain': jsonResponse([long]),
      'GET /api/admin/api/config/moods/4/revisions': jsonResponse([
        {
          revision: 4,
          created_at: '2025-03-03T10:00:00.000Z',
          updated_by: 'bob',
          action: 'updated',
          changes: ['priority'],
          restored_from: null,
          snapshot: { ...long },
        },
        {
          revision: 3,
          created_at: '2025-03-02T10:00:00.000Z',
          updated_by: 'ann',
          action: 'updated',
          changes: ['priority'],
          restored_from: null,
          snapshot: { ...long, priority: 1 },
        },
      ]),
    });
    const router = renderAt('/config?tab=moods&q=Chatty&history=4&revision=4');
    const dialog = await screen.findByRole('dialog', { name: 'History of Chatty' });
    expect(
      await within(dialog).findByRole('heading', { name: 'Revision 4 compared with the current version' }),
    ).toBeVisible();
    expect(within(dialog).queryByRole('button', { name: /^Restore revision/ })).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.search).toBe('?tab=moods&q=Chatty');
  });
});
