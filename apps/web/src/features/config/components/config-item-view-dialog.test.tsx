import type { ConfigRevision } from '@lumi/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { configItem } from '../test/fixtures';
import { ConfigItemViewDialog } from './config-item-view-dialog';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

const item = configItem({ version: 2, content: { tone: 'warm', pace: 'slow' }, tags: ['happy', 'sunny'] });
const revisions: ConfigRevision[] = [
  {
    revision: 2,
    created_at: '2025-03-02T10:00:00.000Z',
    updated_by: 'bob',
    action: 'updated',
    changes: ['content'],
    restored_from: null,
    snapshot: { ...item },
  },
  {
    revision: 1,
    created_at: '2025-03-01T10:00:00.000Z',
    updated_by: 'ann',
    action: 'created',
    changes: ['name', 'description', 'content', 'is_active', 'tags', 'priority'],
    restored_from: null,
    snapshot: { ...item, content: { tone: 'warm' } },
  },
];

describe('ConfigItemViewDialog', () => {
  it('shows every field read-only, the JSON content pretty-printed in full', () => {
    fakeApi();
    renderWithProviders(<ConfigItemViewDialog open onOpenChange={vi.fn()} item={item} />);
    const dialog = screen.getByRole('dialog', { name: 'Cheerful' });
    expect(dialog).toHaveAccessibleDescription('Moods · version 2');
    expect(within(dialog).getByRole('status')).toHaveTextContent('Read only');
    const content = within(dialog).getByLabelText('Content (JSON)');
    expect(content).toHaveValue('{\n  "tone": "warm",\n  "pace": "slow"\n}');
    expect(content).toHaveAttribute('readonly');
    expect(within(dialog).getByRole('radio', { name: 'JSON' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'JSON' })).toBeDisabled();
    expect(within(dialog).getByRole('textbox', { name: 'Description' })).toHaveValue('Sunny days');
    expect(within(dialog).getByRole('textbox', { name: 'Tags' })).toHaveValue('happy, sunny');
    expect(within(dialog).getByRole('checkbox', { name: /Active/ })).toBeChecked();
    for (const field of within(dialog).getAllByRole('textbox')) expect(field).toHaveAttribute('readonly');
  });

  it('lists the history on its tab, compares a revision and offers no restore', async () => {
    const api = fakeApi({ 'GET /api/admin/api/config/moods/1/revisions': jsonResponse(revisions) });
    renderWithProviders(<ConfigItemViewDialog open onOpenChange={vi.fn()} item={item} />);
    // The history is asked for only when its tab is opened.
    expect(api.requests).toEqual([]);

    await userEvent.click(screen.getByRole('tab', { name: 'History' }));
    const list = await screen.findByRole('list', { name: 'Revisions' });
    const entries = within(list).getAllByRole('button');
    expect(entries[0]).toHaveTextContent('Revision 2Current');
    expect(entries[1]).toHaveTextContent('Created by ann');
    expect(
      screen.getByRole('heading', { name: 'Revision 1 compared with the current version' }),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Restore revision/ })).not.toBeInTheDocument();
  });
});
