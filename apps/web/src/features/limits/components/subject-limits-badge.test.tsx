import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { signIn } from '@/test/session-users';
import { accessRule, fakeLimitsApi, viewer } from '../test/fake-limits-api';
import { renderAt } from '../test/render-limits';
import { SubjectLimitsBadge } from './subject-limits-badge';

const standing = {
  kind: 'chat' as const,
  subject: '-100123',
  rule: accessRule(1, { subject: '-100123', reason: 'Spam waves' }),
  limits: [
    {
      id: 1,
      scope: 'each_chat' as const,
      subject: '-100123',
      metric: 'cost_usd' as const,
      window: 'day' as const,
      mode: 'hard' as const,
      amount: 5,
      used: 4.5,
      window_end: '2026-11-26T00:00:00.000Z',
    },
  ],
};

describe('SubjectLimitsBadge', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('asks for a chat’s standing only when opened, then shows its ban and each limit’s usage', async () => {
    const { requestsTo } = fakeLimitsApi({ subjects: { 'chat/-100123': standing } });
    renderAt(<SubjectLimitsBadge kind="chat" subject="-100123" />, '/metrics');
    const button = screen.getByRole('button', { name: 'Limits for chat -100123' });
    expect(requestsTo('/limits/subjects/chat/-100123')).toHaveLength(0);

    await userEvent.click(button);
    const card = await screen.findByRole('dialog', { name: 'Limits for Chat -100123' });
    const bar = await within(card).findByRole('progressbar', { name: 'Each chat: $5.00 per day' });
    expect(bar).toHaveAttribute('aria-valuenow', '90');
    expect(card).toHaveTextContent('Ban');
    expect(card).toHaveTextContent('Spam waves');
    expect(card).toHaveTextContent('Hard');
    expect(card).toHaveTextContent('$4.50 of $5.00 · 90% · Near');
    expect(within(card).getByRole('link', { name: 'All limits' })).toHaveAttribute('href', '/limits');
    expect(requestsTo('/limits/subjects/chat/-100123')).toHaveLength(1);

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(button).toHaveFocus();
  });

  it('says when no limit applies to a user', async () => {
    fakeLimitsApi();
    renderAt(<SubjectLimitsBadge kind="user" subject="42" />, '/metrics');
    await userEvent.click(screen.getByRole('button', { name: 'Limits for user 42' }));
    const card = await screen.findByRole('dialog', { name: 'Limits for User 42' });
    expect(await within(card).findByText('No limit applies.')).toBeInTheDocument();
  });

  it('is there for a reader of the limits, and not for anyone else', () => {
    signIn(viewer);
    fakeLimitsApi();
    renderAt(<SubjectLimitsBadge kind="chat" subject="-100123" />, '/metrics');
    expect(screen.getByRole('button', { name: 'Limits for chat -100123' })).toBeInTheDocument();
  });

  it('is left out without metrics:read', () => {
    signIn({ ...viewer, roles: [{ id: 3, name: 'viewer', permissions: ['alerts:read'] }] });
    fakeLimitsApi();
    renderAt(<SubjectLimitsBadge kind="chat" subject="-100123" />, '/metrics');
    expect(screen.queryByRole('button', { name: /Limits for/ })).not.toBeInTheDocument();
  });
});
