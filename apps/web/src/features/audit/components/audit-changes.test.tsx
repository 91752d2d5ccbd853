import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AuditChanges } from './audit-changes';

/** The row of the changes list for one field: its name and what happened to it. */
function fieldRow(field: string) {
  const term = screen.getByText(field, { selector: 'dt' });
  return within(term.parentElement!);
}

describe('AuditChanges', () => {
  it('shows each changed field with its old and new value, and leaves unchanged ones out', () => {
    render(
      <AuditChanges
        oldValue={{ id: 5, name: 'Ann Lee', email: 'ann@example.com', is_active: true, roles: ['viewer'] }}
        newValue={{
          id: 5,
          name: 'Ann Lee',
          email: 'ann@corp.example',
          is_active: false,
          roles: ['viewer', 'operator'],
        }}
      />,
    );

    expect(screen.queryByText('name', { selector: 'dt' })).not.toBeInTheDocument();
    expect(screen.queryByText('id', { selector: 'dt' })).not.toBeInTheDocument();

    const email = fieldRow('email');
    expect(email.getByText('ann@example.com').closest('del')).not.toBeNull();
    expect(email.getByText('ann@corp.example').closest('ins')).not.toBeNull();

    const active = fieldRow('is_active');
    expect(active.getByText('Yes').closest('del')).not.toBeNull();
    expect(active.getByText('No').closest('ins')).not.toBeNull();

    const roles = fieldRow('roles');
    expect(roles.getByText('viewer').closest('del, ins')).toBeNull();
    expect(roles.getByText('operator').closest('ins')).not.toBeNull();
  });

  it('marks only the words that changed in a long text', () => {
    render(
      <AuditChanges
        oldValue={{
          description: 'Runs the bot day to day and answers questions from the community about prices',
        }}
        newValue={{
          description: 'Runs the bot day to day and answers questions from the traders about prices',
        }}
      />,
    );

    const description = fieldRow('description');
    expect(description.getByText('community').closest('del')).not.toBeNull();
    expect(description.getByText('traders').closest('ins')).not.toBeNull();
    expect(description.getByText(/Runs the bot day to day/).closest('del, ins')).toBeNull();
  });

  it('lists the values of a new record as added and of a deleted one as removed', () => {
    const { unmount } = render(
      <AuditChanges oldValue={null} newValue={{ username: 'ann', roles: ['viewer'] }} />,
    );
    expect(fieldRow('username').getByText('ann').closest('ins')).not.toBeNull();
    expect(fieldRow('roles').getByText('viewer').closest('ins')).not.toBeNull();
    unmount();

    render(<AuditChanges oldValue={{ username: 'ann' }} newValue={null} />);
    expect(fieldRow('username').getByText('ann').closest('del')).not.toBeNull();
  });

  it('says so when nothing was recorded or nothing changed', () => {
    const { unmount } = render(<AuditChanges oldValue={null} newValue={null} />);
    expect(screen.getByText('No details recorded.')).toBeInTheDocument();
    unmount();

    render(<AuditChanges oldValue={{ name: 'Ann' }} newValue={{ name: 'Ann' }} />);
    expect(screen.getByText('No field changed.')).toBeInTheDocument();
  });

  it('never shows raw JSON for simple values', () => {
    render(<AuditChanges oldValue={{ name: 'Ann' }} newValue={{ name: 'Anne' }} />);
    expect(screen.queryByText(/[{}]/)).not.toBeInTheDocument();
  });
});
