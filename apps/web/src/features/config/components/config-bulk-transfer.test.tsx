import type { ConfigItem } from '@lumi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse } from '@/test/render-with-providers';
import { configItem, signInWith } from '../test/fixtures';
import { ConfigPage } from './config-page';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

const items: ConfigItem[] = [
  configItem({ id: 1, name: 'Cheerful', is_active: true }),
  configItem({ id: 2, name: 'Grumpy', is_active: true }),
  configItem({ id: 3, name: 'Sleepy', is_active: false }),
];

function renderConfig() {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter([{ path: '/config', element: <ConfigPage /> }], {
    initialEntries: ['/config?tab=moods'],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('Configuration: bulk enable/disable, export and import', () => {
  afterEach(() => {
    useAuthStore.setState({ user: null, accessToken: null, isAuthenticated: false });
  });

  it('offers Export to a reader, and no selection, bulk actions or Import', async () => {
    signInWith(['config:read']);
    fakeApi({ 'GET /api/admin/api/config/:domain': jsonResponse(items) });
    renderConfig();
    await screen.findByText('Grumpy');
    expect(screen.getByRole('button', { name: 'Export' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('disables the selected items one request each, and keeps what failed selected with its reason', async () => {
    signInWith(['config:read', 'config:write']);
    const api = fakeApi({
      'GET /api/admin/api/config/:domain': jsonResponse(items),
      'PUT /api/admin/api/config/:domain/:id': (_request, params) =>
        params.id === '2'
          ? jsonResponse(
              { detail: 'admin saved Grumpy since you loaded it', code: 'conflict', request_id: '1' },
              409,
            )
          : jsonResponse(items[0]),
    });
    renderConfig();
    await screen.findByText('Grumpy');

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all shown items' }));
    const toolbar = screen.getByRole('toolbar', { name: 'Selected items' });
    expect(toolbar).toHaveTextContent('3 selected');
    await userEvent.click(within(toolbar).getByRole('button', { name: 'Disable selected' }));

    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('1 item was not changed');
    expect(failure).toHaveTextContent('Grumpy: admin saved Grumpy since you loaded it');
    const puts = api.requests.filter((request) => request.method === 'PUT');
    // Sleepy is off already: two requests, each with the version the list showed.
    expect(puts.map((request) => request.path)).toEqual([
      '/api/admin/api/config/moods/1',
      '/api/admin/api/config/moods/2',
    ]);
    expect(puts[0]?.body).toMatchObject({ name: 'Cheerful', is_active: false, version: 2 });
    expect(screen.getByRole('checkbox', { name: 'Select Grumpy' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Cheerful' })).not.toBeChecked();
  });

  it('imports a file after saying what will change, and lists the problems per item when refused', async () => {
    signInWith(['config:read', 'config:write']);
    const api = fakeApi({
      'GET /api/admin/api/config/:domain': jsonResponse(items),
      'POST /api/admin/api/config/:domain/import': [
        jsonResponse(
          {
            detail: '1 problem in the import; nothing was changed',
            code: 'validation_failed',
            errors: [{ path: 'items.1.priority', message: 'Priority must be a whole number from 1 to 100' }],
            request_id: '1',
          },
          422,
        ),
        jsonResponse({ created: 1, updated: 1 }),
      ],
    });
    renderConfig();
    await screen.findByText('Grumpy');

    const file = new File(
      [
        JSON.stringify({
          domain: 'moods',
          items: [
            { name: 'grumpy', content: 'x' },
            { name: 'Calm', priority: 0 },
          ],
        }),
      ],
      'moods.json',
      { type: 'application/json' },
    );
    await userEvent.upload(screen.getByLabelText('Import Moods from a JSON file'), file);

    const dialog = await screen.findByRole('dialog', { name: 'Import Moods' });
    expect(dialog).toHaveTextContent('2 items: 1 new item and 1 existing item updated');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Import 2 items' }));

    const problems = await within(dialog).findByRole('alert');
    expect(problems).toHaveTextContent('Nothing was imported');
    expect(problems).toHaveTextContent(
      'Item 2 (Calm)priority: Priority must be a whole number from 1 to 100',
    );
    expect(api.requests.find((request) => request.method === 'POST')?.body).toEqual({
      items: [
        { name: 'grumpy', content: 'x' },
        { name: 'Calm', priority: 0 },
      ],
    });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.upload(screen.getByLabelText('Import Moods from a JSON file'), file);
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Import Moods' })).getByRole('button', {
        name: 'Import 2 items',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says what is wrong with a file that is not an import', async () => {
    signInWith(['config:read', 'config:write']);
    fakeApi({ 'GET /api/admin/api/config/:domain': jsonResponse(items) });
    renderConfig();
    await screen.findByText('Grumpy');
    await userEvent.upload(
      screen.getByLabelText('Import Moods from a JSON file'),
      new File(['not json'], 'notes.txt', { type: 'application/json' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('notes.txt: The file is not valid JSON.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("takes a file's message down once a good file is chosen, and it stays down after the import", async () => {
    signInWith(['config:read', 'config:write']);
    fakeApi({
      'GET /api/admin/api/config/:domain': jsonResponse(items),
      'POST /api/admin/api/config/:domain/import': jsonResponse({ created: 1, updated: 0 }),
    });
    renderConfig();
    await screen.findByText('Grumpy');
    const input = screen.getByLabelText('Import Moods from a JSON file');
    await userEvent.upload(input, new File(['{"items": []}'], 'empty.json', { type: 'application/json' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('empty.json: The file holds no items.');

    await userEvent.upload(
      input,
      new File([JSON.stringify([{ name: 'Calm', content: 'Breathe' }])], 'calm.json', {
        type: 'application/json',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Import Moods' });
    // Behind the open dialog the page is hidden from assistive technology; the banner is gone from it too.
    expect(screen.queryByRole('alert', { hidden: true })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Import 1 item' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
