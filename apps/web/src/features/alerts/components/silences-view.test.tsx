import { ALERT_MESSAGES } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { formatDateTime } from '@/lib/format';
import { jsonResponse } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { fakeAlertsApi, rule, silence } from '../test/fake-alerts-api';
import { renderAt } from '../test/render-alerts';
import { AlertsPage } from './alerts-page';

const show = () => renderAt(<AlertsPage />, '/alerts?view=silences');

describe('Alerts > Silences', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('lists what each silence mutes, when, its status and why', async () => {
    fakeAlertsApi({
      silences: [
        silence(1, { rule_id: 3, rule_name: 'Heartbeat', comment: 'Deploy', starts_at: null }),
        silence(2, {
          kind: 'recurring',
          severity: 'warning',
          starts_at: null,
          ends_at: null,
          weekdays: ['sunday'],
          start_time: '02:00',
          duration_minutes: 60,
          timezone: 'Europe/Berlin',
          status: 'scheduled',
          comment: 'Maintenance',
        }),
      ],
    });
    show();
    const table = await screen.findByRole('table', { name: 'Silences' });
    const [once, window] = within(table).getAllByRole('row').slice(1);
    expect(once).toHaveTextContent('Rule: Heartbeat');
    expect(once).toHaveTextContent(`until ${formatDateTime('2026-11-25T10:00:00.000Z')}`);
    expect(once).toHaveTextContent('Active');
    expect(within(once!).getByRole('button', { name: 'End silence: Deploy' })).toBeInTheDocument();
    expect(window).toHaveTextContent('Every warning rule');
    expect(window).toHaveTextContent('Sundays 02:00–03:00 Europe/Berlin');
    expect(window).toHaveTextContent('Scheduled');
  });

  it('creates a maintenance window for every rule', async () => {
    const { requestsTo } = fakeAlertsApi({
      rules: [rule(1, { name: 'Heartbeat' })],
      routes: { 'POST /alerts/silences': () => jsonResponse(silence(9), 201) },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'New Silence' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Silence' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Silence' }));
    expect(await within(dialog).findByText('Choose when the silence ends')).toBeInTheDocument();
    expect(within(dialog).getByText(ALERT_MESSAGES.commentRequired)).toBeInTheDocument();

    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Kind' }), 'recurring');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Saturday' }));
    const from = within(dialog).getByLabelText('From');
    await userEvent.clear(from);
    await userEvent.type(from, '03:30');
    const duration = within(dialog).getByRole('textbox', { name: 'For (min)' });
    await userEvent.clear(duration);
    await userEvent.type(duration, '90');
    await userEvent.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Time zone' }),
      'Europe/Berlin',
    );
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Comment' }), 'Weekly maintenance');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Silence' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo('/alerts/silences', 'POST')[0]?.body).toEqual({
      kind: 'recurring',
      rule_id: null,
      severity: null,
      comment: 'Weekly maintenance',
      weekdays: ['sunday', 'saturday'],
      start_time: '03:30',
      duration_minutes: 90,
      timezone: 'Europe/Berlin',
    });
  });

  it('ends an active silence after confirmation', async () => {
    const { requestsTo } = fakeAlertsApi({
      silences: [silence(4, { comment: 'Deploy' })],
      routes: { 'DELETE /alerts/silences/:id': () => new Response(null, { status: 204 }) },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'End silence: Deploy' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'End this silence?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'End Silence' }));
    await waitFor(() => expect(requestsTo('/alerts/silences/4', 'DELETE')).toHaveLength(1));
  });
});
