import type { SessionUser } from '@lumi/contract';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { signIn } from '@/test/session-users';
import { usePermittedNavItems } from './nav-items';

function Labels() {
  return (
    <p>
      {usePermittedNavItems()
        .map((item) => item.label)
        .join(', ')}
    </p>
  );
}

const withPermissions = (permissions: string[]): SessionUser => ({
  id: 2,
  username: 'someone',
  email: 'someone@example.com',
  name: 'Someone',
  role: 'custom',
  roles: [{ id: 9, name: 'custom', permissions }],
  pending_action: null,
});

describe('usePermittedNavItems', () => {
  afterEach(() => useAuthStore.getState().clear());

  it('shows Alerts to a user who may read alerts', () => {
    signIn(withPermissions(['metrics:read', 'alerts:read']));
    render(<Labels />);
    expect(
      screen.getByText('Overview, Metrics, Configuration, Messages, Alerts, Limits'),
    ).toBeInTheDocument();
  });

  it('leaves Alerts out for a user who may not', () => {
    signIn(withPermissions(['metrics:read']));
    render(<Labels />);
    expect(screen.getByText('Overview, Metrics, Configuration, Messages, Limits')).toBeInTheDocument();
  });

  it('leaves Limits out for a user who may not read metrics', () => {
    signIn(withPermissions(['alerts:read']));
    render(<Labels />);
    expect(screen.getByText('Overview, Metrics, Configuration, Messages, Alerts')).toBeInTheDocument();
  });
});
