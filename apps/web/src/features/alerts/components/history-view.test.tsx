import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { signIn } from '@/test/session-users';
import { fakeAlertsApi, historyEntry, rule } from '../test/fake-alerts-api';
import { renderAt } from '../test/render-alerts';
import { AlertsPage } from './alerts-page';

describe('Alerts > History', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('reads its filters from the URL, keeps new ones there and loads older pages', async () => {
    const { requestsTo } = fakeAlertsApi({
      rules: [rule(1, { name: 'Heartbeat' }), rule(2, { name: 'Budget' })],
      historyPageSize: 2,
      history: [
        historyEntry(5, { rule_name: 'Heartbeat', to_state: 'ok', from_state: 'firing' }),
        historyEntry(4, { rule_name: 'Heartbeat', silenced: true }),
        historyEntry(3, { rule_id: 2, rule_name: 'Budget', severity: 'critical' }),
        historyEntry(2, { rule_name: 'Heartbeat', to_state: 'pending' }),
        historyEntry(1, { rule_name: 'Heartbeat' }),
      ],
    });
    const router = renderAt(<AlertsPage />, '/alerts?view=history&state=firing');
    expect(await screen.findByRole('combobox', { name: 'New state' })).toHaveValue('firing');
    await screen.findByRole('table', { name: 'State changes' });
    // Found again each time: a new filter loads a new list.
    const rows = () =>
      within(screen.getByRole('table', { name: 'State changes' }))
        .getAllByRole('row')
        .slice(1);
    expect(rows()).toHaveLength(2);
    expect(rows()[0]).toHaveTextContent('Heartbeat');
    expect(rows()[0]).toHaveTextContent('OK');
    expect(rows()[0]).toHaveTextContent('Firing');
    expect(rows()[0]).toHaveTextContent('Silenced');
    expect(requestsTo('/alerts/history')[0]?.query.get('state')).toBe('firing');

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(requestsTo('/alerts/history').at(-1)?.query.get('cursor')).toBe('3');

    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Rule' }), 'Budget');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Severity' }), 'Critical');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('Budget');
    const params = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(params)).toEqual({
      view: 'history',
      state: 'firing',
      rule_id: '2',
      severity: 'critical',
    });
    expect(within(rows()[0]!).getByRole('link', { name: 'Budget' })).toHaveAttribute(
      'href',
      '/alerts?rule=2',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=history'));
  });

  it('sends a time range as instants', async () => {
    const { requestsTo } = fakeAlertsApi({ history: [] });
    renderAt(<AlertsPage />, '/alerts?view=history&from=2026-11-24T00:00:00.000Z');
    expect(await screen.findByText('No state changes match these filters')).toBeInTheDocument();
    expect(requestsTo('/alerts/history')[0]?.query.get('from')).toBe('2026-11-24T00:00:00.000Z');
  });
});
