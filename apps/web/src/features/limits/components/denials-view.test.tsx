import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { formatDateTime } from '@/lib/format';
import { signIn } from '@/test/session-users';
import { denial, fakeLimitsApi, limit } from '../test/fake-limits-api';
import { renderAt } from '../test/render-limits';
import { LimitsPage } from './limits-page';

const rows = () =>
  within(screen.getByRole('table', { name: 'Denied calls' }))
    .getAllByRole('row')
    .slice(1);

describe('Limits > Denials', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('shows the 24-hour count and the denials newest first, loading older pages', async () => {
    const { requestsTo } = fakeLimitsApi({
      limits: [limit(1)],
      denialsPageSize: 2,
      total24h: 5,
      denials: [
        denial(5, { ts: '2026-11-25T08:05:00.000Z' }),
        denial(4, { reason: 'banned', limit_id: null, feature: null }),
        denial(3, { limit_id: 9 }),
        denial(2),
        denial(1),
      ],
    });
    renderAt(<LimitsPage />, '/limits?view=denials');
    expect(await screen.findByText('5 calls denied in the last 24 hours')).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Denied calls' });
    expect(rows()).toHaveLength(2);
    const [first, second] = rows();
    expect(first).toHaveTextContent(formatDateTime('2026-11-25T08:05:00.000Z'));
    expect(first).toHaveTextContent('-100123');
    expect(first).toHaveTextContent('42');
    expect(first).toHaveTextContent('reply');
    expect(first).toHaveTextContent('Limit reached');
    expect(first).toHaveTextContent('Chat -100123: $5.00 per day');
    expect(second).toHaveTextContent('Banned');
    expect(requestsTo('/limits/denials')[0]?.query.get('limit')).toBe('50');

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(requestsTo('/limits/denials').at(-1)?.query.get('cursor')).toBe('4');
    // A limit deleted since is named by its number.
    expect(rows()[2]).toHaveTextContent('Limit 9 (deleted)');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('reads the chat and user filters from the URL and keeps new ones there', async () => {
    const { requestsTo } = fakeLimitsApi({
      denials: [denial(3, { user_id: '42' }), denial(2, { user_id: '7' }), denial(1, { chat_id: '-100456' })],
    });
    const router = renderAt(<LimitsPage />, '/limits?view=denials&chat_id=-100123');
    expect(await screen.findByRole('textbox', { name: 'Chat id' })).toHaveValue('-100123');
    await screen.findByRole('table', { name: 'Denied calls' });
    expect(rows()).toHaveLength(2);
    expect(requestsTo('/limits/denials')[0]?.query.get('chat_id')).toBe('-100123');
    // The count is of the calls the filters match.
    expect(screen.getByText('2 matching calls denied in the last 24 hours')).toBeInTheDocument();

    const user = screen.getByRole('textbox', { name: 'User id' });
    await userEvent.type(user, 'bob');
    await userEvent.click(screen.getByRole('button', { name: 'Apply Filters' }));
    expect(await screen.findByText('Must be a Telegram id such as -1001234567890')).toBeInTheDocument();
    expect(user).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(user);
    await userEvent.type(user, '42{Enter}');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      view: 'denials',
      chat_id: '-100123',
      user_id: '42',
    });

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=denials'));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByRole('textbox', { name: 'Chat id' })).toHaveValue('');
  });

  it('shows the denials of one limit, named, until that filter is dropped', async () => {
    fakeLimitsApi({
      limits: [limit(1), limit(2, { subject: '-100456' })],
      denials: [denial(2, { limit_id: 2, chat_id: '-100456' }), denial(1)],
    });
    const router = renderAt(<LimitsPage />, '/limits?view=denials&limit_id=1');
    expect(await screen.findByText('Denied by Chat -100123: $5.00 per day')).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Denied calls' });
    expect(rows()).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Show the denials of every limit' }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=denials'));
    await waitFor(() => expect(rows()).toHaveLength(2));
  });

  it('names the limit filtered by when none of its denials is listed', async () => {
    fakeLimitsApi({ limits: [limit(2, { subject: '-100456' })], denials: [denial(1, { limit_id: 2 })] });
    renderAt(<LimitsPage />, '/limits?view=denials&limit_id=2&chat_id=-100999');
    expect(await screen.findByText('Denied by Chat -100456: $5.00 per day')).toBeInTheDocument();
    expect(screen.getByText('No denials match these filters')).toBeInTheDocument();
  });

  it('names a deleted limit filtered by with its number', async () => {
    fakeLimitsApi({ denials: [denial(1, { limit_id: 7 })] });
    renderAt(<LimitsPage />, '/limits?view=denials&limit_id=7&chat_id=-100999');
    expect(await screen.findByText('No denials match these filters')).toBeInTheDocument();
    expect(await screen.findByText('Denied by limit 7')).toBeInTheDocument();
  });

  it('says when nothing was denied, and when nothing matches', async () => {
    fakeLimitsApi({ total24h: 0 });
    renderAt(<LimitsPage />, '/limits?view=denials');
    expect(await screen.findByText('No calls have been denied.')).toBeInTheDocument();
    expect(screen.getByText('0 calls denied in the last 24 hours')).toBeInTheDocument();
  });
});
