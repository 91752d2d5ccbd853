import type { ConfigRevision } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, type FakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { configItem } from '../test/fixtures';
import { RevisionHistoryDialog } from './revision-history-dialog';

const current = configItem({ version: 3, content: { tone: 'warm', pace: 'slow' }, priority: 5 });
const revisions: ConfigRevision[] = [
  {
    revision: 3,
    created_at: '2025-03-03T10:00:00.000Z',
    updated_by: 'bob',
    action: 'updated',
    changes: ['priority', 'content'],
    restored_from: null,
    snapshot: { ...current },
  },
  {
    revision: 2,
    created_at: '2025-03-02T10:00:00.000Z',
    updated_by: 'ann',
    action: 'restored',
    changes: ['name'],
    restored_from: 1,
    snapshot: { ...current, content: { tone: 'warm' }, priority: 2 },
  },
  {
    revision: 1,
    created_at: '2025-03-01T10:00:00.000Z',
    updated_by: 'ann',
    action: 'created',
    changes: ['name', 'description', 'content', 'is_active', 'tags', 'priority'],
    restored_from: null,
    snapshot: { ...current, name: 'Glad', content: { tone: 'warm' }, priority: 2 },
  },
];

describe('RevisionHistoryDialog', () => {
  let api: FakeApi;
  beforeEach(() => {
    api = fakeApi({
      'GET /api/admin/api/config/moods/1/revisions': jsonResponse(revisions),
      'POST /api/admin/api/config/moods/1/revisions/:revision/restore': jsonResponse({
        ...current,
        version: 4,
      }),
    });
  });

  it('lists the revisions with action, author and changed fields', async () => {
    renderWithProviders(<RevisionHistoryDialog open onOpenChange={vi.fn()} item={current} canRestore />);
    const list = await screen.findByRole('list', { name: 'Revisions' });
    const entries = within(list).getAllByRole('button');
    expect(entries).toHaveLength(3);
    expect(entries[0]).toHaveTextContent('Revision 3Current');
    expect(entries[0]).toHaveTextContent('Updated by bob');
    expect(entries[0]).toHaveTextContent('Changed: Content, Priority');
    expect(entries[1]).toHaveTextContent('Restored from revision 1 by ann');
    expect(entries[2]).toHaveTextContent('Created by ann');
  });

  it('compares the newest older revision with the current item, field by field', async () => {
    renderWithProviders(<RevisionHistoryDialog open onOpenChange={vi.fn()} item={current} canRestore />);
    expect(
      await screen.findByRole('heading', { name: 'Revision 2 compared with the current version' }),
    ).toBeVisible();
    const priority = screen.getByText('Priority', { selector: 'dt' }).parentElement!;
    expect(priority).toHaveTextContent('Revision 2: 2Current: 5');
    const added = screen.getByText('"pace": "slow"', { exact: false }).closest('ins');
    expect(added).not.toBeNull();

    await userEvent.click(screen.getByRole('button', { name: /Revision 1/ }));
    expect(screen.getByText('Name', { selector: 'dt' }).parentElement).toHaveTextContent(
      'Revision 1: GladCurrent: Cheerful',
    );
  });

  it('restores after confirmation with the version on screen', async () => {
    renderWithProviders(<RevisionHistoryDialog open onOpenChange={vi.fn()} item={current} canRestore />);
    await userEvent.click(await screen.findByRole('button', { name: 'Restore revision 2' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Restore revision 2?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Restore' }));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    const post = api.requests.find((r) => r.method === 'POST')!;
    expect(post.url).toBe('/api/admin/api/config/moods/1/revisions/2/restore');
    expect(post.body).toEqual({ version: 3 });
    expect(screen.getByRole('status')).toHaveTextContent('Revision 2 was restored');
  });

  it('opens on the revision a link names, and offers no restore to a reader', async () => {
    renderWithProviders(
      <RevisionHistoryDialog
        open
        onOpenChange={vi.fn()}
        item={current}
        initialRevision={1}
        canRestore={false}
      />,
    );
    expect(
      await screen.findByRole('heading', { name: 'Revision 1 compared with the current version' }),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Restore revision/ })).not.toBeInTheDocument();
  });
});
