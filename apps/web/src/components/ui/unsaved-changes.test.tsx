import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useFormDialog } from '@/lib/use-form-dialog';
import { renderWithProviders } from '@/test/render-with-providers';
import { Dialog } from './dialog';
import { DialogForm } from './dialog-form';

const schema = z.object({ name: z.string() });

function NameForm({ onClose }: { onClose: () => void }) {
  const dialog = useFormDialog(schema, {
    defaultValues: { name: 'Lumi' },
    save: () => Promise.resolve(),
    onSaved: onClose,
    failureMessage: 'Failed',
  });
  return (
    <DialogForm dialog={dialog} onCancel={onClose} submitLabel="Save">
      <label>
        Name
        <input {...dialog.form.register('name')} />
      </label>
    </DialogForm>
  );
}

function Harness() {
  const [open, setOpen] = useState(true);
  return open ? (
    <Dialog open onOpenChange={setOpen} title="Edit name">
      <NameForm onClose={() => setOpen(false)} />
    </Dialog>
  ) : (
    <p>Closed</p>
  );
}

const question = () => screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });

describe('a dialog with a form', () => {
  it.each([
    ['Escape', () => userEvent.keyboard('{Escape}')],
    ['its Cancel', () => userEvent.click(screen.getByRole('button', { name: 'Cancel' }))],
    ['its close button', () => userEvent.click(screen.getByRole('button', { name: 'Close' }))],
  ])('asks before %s discards an edit', async (_name, leave) => {
    renderWithProviders(<Harness />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), ' Admin');

    await leave();
    await userEvent.click(within(await question()).getByRole('button', { name: 'Keep editing' }));
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Lumi Admin');

    await leave();
    await userEvent.click(within(await question()).getByRole('button', { name: 'Discard changes' }));
    expect(await screen.findByText('Closed')).toBeInTheDocument();
  });

  it('closes at once when nothing was edited', async () => {
    renderWithProviders(<Harness />);
    await userEvent.keyboard('{Escape}');
    expect(await screen.findByText('Closed')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('does not ask after a save', async () => {
    renderWithProviders(<Harness />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Name' }), '!');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Closed')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});
