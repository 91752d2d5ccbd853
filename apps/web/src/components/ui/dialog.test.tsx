import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render-with-providers';
import { ConfirmDialog } from './dialog';

/**
 * A list whose rows each have Edit and Delete; Delete asks first, and the row goes either before the
 * dialog closes or, as when the list reloads after the delete, a moment after.
 */
function List({ names, removeLate }: { names: string[]; removeLate: boolean }) {
  const [rows, setRows] = useState(names);
  const [deleting, setDeleting] = useState<string | null>(null);
  const remove = (name: string) => setRows((current) => current.filter((row) => row !== name));
  return (
    <>
      <ul aria-label="Names">
        {rows.map((name) => (
          <li key={name}>
            {name}
            <button type="button">Edit {name}</button>
            <button type="button" onClick={() => setDeleting(name)}>
              Delete {name}
            </button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete it?"
        description="It goes at once."
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={false}
        onConfirm={() => {
          const name = deleting!;
          setDeleting(null);
          if (removeLate) setTimeout(() => remove(name), 50);
          else remove(name);
        }}
      />
    </>
  );
}

describe('focus after a confirmed delete', () => {
  it.each([
    ['goes before the dialog closes', false],
    ['goes as its list reloads', true],
  ])('moves to the next row’s Delete when the row %s', async (_when, removeLate) => {
    renderWithProviders(<List names={['Ada', 'Bob', 'Cy']} removeLate={removeLate} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Bob' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Bob' })).toBeNull());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete Cy' })).toHaveFocus());
  });

  it('moves to the row before when the last row goes', async () => {
    renderWithProviders(<List names={['Ada', 'Bob']} removeLate />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Bob' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete Ada' })).toHaveFocus());
  });

  it('returns to the control that opened the dialog when nothing was deleted', async () => {
    renderWithProviders(<List names={['Ada', 'Bob']} removeLate={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Bob' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete Bob' })).toHaveFocus());
    await act(() => new Promise((done) => setTimeout(done, 60)));
    expect(screen.getByRole('button', { name: 'Delete Bob' })).toHaveFocus();
  });
});
