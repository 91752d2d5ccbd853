import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { formatDateTime } from '@/lib/format';
import { jsonResponse } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { accessRule, denial, fakeLimitsApi, limit, usage, viewer } from '../test/fake-limits-api';
import { renderAt, toasts } from '../test/render-limits';
import { LimitsPage } from './limits-page';

const show = (entry = '/limits') => renderAt(<LimitsPage />, entry);
const rows = (name: string) => within(screen.getByRole('table', { name })).getAllByRole('row').slice(1);

describe('Limits > Limits', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('lists who each limit is on, its amount, mode, a raise in force, usage bars and denials', async () => {
    const raisedUntil = '2099-01-01T09:00:00.000Z';
    fakeLimitsApi({
      limits: [
        limit(1, { usage: [usage('-100123', 4.2, 5)], denials_24h: 3, note: 'Noisy group' }),
        limit(2, {
          scope: 'each_user',
          subject: null,
          metric: 'requests',
          window: 'hour',
          amount: 100,
          mode: 'soft',
          usage: [usage('42', 120, 100), usage('7', 50, 100)],
        }),
        limit(3, {
          scope: 'feature',
          subject: 'digest',
          metric: 'tokens',
          window: 'month',
          amount: 50_000,
          raise_amount: 80_000,
          raise_until: raisedUntil,
          effective_amount: 80_000,
        }),
      ],
    });
    show();
    await screen.findByRole('table', { name: 'Limits' });
    const [chat, eachUser, feature] = rows('Limits');

    expect(chat).toHaveTextContent('Chat -100123');
    expect(chat).toHaveTextContent('Noisy group');
    expect(chat).toHaveTextContent('$5.00 per day');
    expect(chat).toHaveTextContent('Hard');
    const chatBar = within(chat!).getByRole('progressbar', { name: 'Chat -100123: $5.00 per day' });
    expect(chatBar).toHaveAttribute('aria-valuenow', '84');
    expect(chatBar).toHaveAttribute('aria-valuetext', '84% used: $4.20 of $5.00, near the limit');
    expect(chat).toHaveTextContent('$4.20 of $5.00 · 84% · Near');
    expect(
      within(chat!).getByRole('link', {
        name: '3 denied in 24 hours by Chat -100123, $5.00 per day: show them',
      }),
    ).toHaveAttribute('href', '/limits?view=denials&limit_id=1');

    expect(eachUser).toHaveTextContent('Each user');
    expect(eachUser).toHaveTextContent('100 requests per hour');
    expect(eachUser).toHaveTextContent('Soft');
    const over = within(eachUser!).getByRole('progressbar', { name: 'User 42: 100 requests per hour' });
    // The bar stops at 100 %; the words say how far over.
    expect(over).toHaveAttribute('aria-valuenow', '100');
    expect(over).toHaveAttribute('aria-valuetext', '120% used: 120 of 100 requests, over the limit');
    expect(
      within(eachUser!).getByRole('progressbar', { name: 'User 7: 100 requests per hour' }),
    ).toHaveAttribute('aria-valuenow', '50');
    expect(eachUser).toHaveTextContent('User 42');

    expect(feature).toHaveTextContent('Feature digest');
    expect(feature).toHaveTextContent('50,000 tokens per month');
    expect(feature).toHaveTextContent(`Raised to 80,000 tokens until ${formatDateTime(raisedUntil)}`);
    expect(feature).toHaveTextContent('No use yet in this window');
  });

  it('says nothing of a raise that has ended', async () => {
    fakeLimitsApi({
      limits: [limit(1, { raise_amount: 10, raise_until: '2020-01-01T00:00:00.000Z', effective_amount: 5 })],
    });
    show();
    await screen.findByRole('table', { name: 'Limits' });
    expect(rows('Limits')[0]).not.toHaveTextContent('Raised');
  });

  it('shows 50 limits at a time, newest first, how many there are, and loads older ones', async () => {
    const { requestsTo } = fakeLimitsApi({
      limitsPageSize: 2,
      limits: [3, 2, 1].map((id) => limit(id, { subject: `-10012${id}` })),
    });
    show();
    await screen.findByRole('table', { name: 'Limits' });
    expect(rows('Limits')).toHaveLength(2);
    expect(screen.getByText(/Showing 2 of 3\./)).toBeInTheDocument();
    expect(requestsTo('/limits')[0]?.query.get('limit')).toBe('50');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows('Limits')).toHaveLength(3));
    expect(requestsTo('/limits').at(-1)?.query.get('cursor')).toBe('2');
    expect(rows('Limits')[2]).toHaveTextContent('Chat -100121');
    expect(screen.queryByText(/Showing/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('says when there is no limit yet, with a call to add one', async () => {
    fakeLimitsApi();
    show();
    expect(await screen.findByText(/No limits yet/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add Limit' }));
    expect(await screen.findByRole('dialog', { name: 'Add Limit' })).toBeInTheDocument();
  });

  it('shows a placeholder while loading, and a Retry after a failure', async () => {
    fakeLimitsApi({
      routes: {
        'GET /limits': [
          jsonResponse({ detail: 'The database is not reachable', code: 'internal' }, 503),
          jsonResponse({ limits: [limit(1)] }),
        ],
      },
    });
    show();
    expect(screen.getByRole('status', { name: 'Loading limits' })).toBeInTheDocument();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load the limits');
    expect(alert).toHaveTextContent('The database is not reachable');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Limits' })).toHaveTextContent('Chat -100123');
  });

  it('deletes a limit after confirmation, and keeps it after Cancel', async () => {
    const { requestsTo } = fakeLimitsApi({
      limits: [limit(1)],
      routes: { 'DELETE /limits/:id': () => jsonResponse({ ok: true }) },
    });
    show();
    const remove = await screen.findByRole('button', { name: 'Delete limit: Chat -100123, $5.00 per day' });
    await userEvent.click(remove);
    let confirm = await screen.findByRole('alertdialog', { name: 'Delete this limit?' });
    expect(confirm).toHaveTextContent('Chat -100123, $5.00 per day: it stops applying at once.');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(remove).toHaveFocus();
    expect(requestsTo('/limits/1', 'DELETE')).toHaveLength(0);

    await userEvent.click(remove);
    confirm = await screen.findByRole('alertdialog', { name: 'Delete this limit?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete Limit' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(requestsTo('/limits/1', 'DELETE')).toHaveLength(1);
    expect(await within(toasts()).findByText('Limit deleted')).toBeInTheDocument();
  });

  it('says why a delete failed, and keeps the question open', async () => {
    fakeLimitsApi({
      limits: [limit(1)],
      routes: {
        'DELETE /limits/:id': () => jsonResponse({ detail: 'There is no limit 1', code: 'not_found' }, 404),
      },
    });
    show();
    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete limit: Chat -100123, $5.00 per day' }),
    );
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this limit?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete Limit' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent('There is no limit 1');
  });

  it('keeps the view in the URL', async () => {
    fakeLimitsApi({ limits: [limit(1)], rules: [accessRule(1)], denials: [denial(1)] });
    const router = show();
    await userEvent.click(await screen.findByRole('tab', { name: 'Bans and allowlist' }));
    expect(await screen.findByRole('table', { name: 'Bans and allowlist' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?view=access');
    await userEvent.click(screen.getByRole('tab', { name: 'Denials' }));
    expect(await screen.findByRole('table', { name: 'Denied calls' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?view=denials');
    await userEvent.click(screen.getByRole('tab', { name: 'Limits' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});

describe('Limits without limits:write', () => {
  beforeEach(() => signIn(viewer));
  afterEach(() => useAuthStore.getState().clear());

  it('shows the limits and the bans with no control to change them', async () => {
    fakeLimitsApi({ limits: [limit(1, { usage: [usage('-100123', 1, 5)] })], rules: [accessRule(1)] });
    show();
    await screen.findByRole('table', { name: 'Limits' });
    expect(screen.getByRole('progressbar', { name: 'Chat -100123: $5.00 per day' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add Limit|Edit|Delete/ })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Bans and allowlist' }));
    await screen.findByRole('table', { name: 'Bans and allowlist' });
    expect(screen.queryByRole('button', { name: /Add Entry|Delete/ })).not.toBeInTheDocument();
  });

  it('offers no Add Limit on an empty list', async () => {
    fakeLimitsApi();
    show();
    expect(await screen.findByText(/No limits yet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Limit' })).not.toBeInTheDocument();
  });

  it('denies a user who may not read metrics', () => {
    signIn({ ...viewer, roles: [{ id: 3, name: 'viewer', permissions: ['alerts:read'] }] });
    fakeLimitsApi();
    show();
    expect(screen.getByRole('alert')).toHaveTextContent("You don't have permission to view limits.");
  });
});
