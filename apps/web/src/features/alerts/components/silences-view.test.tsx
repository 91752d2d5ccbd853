import { ALERT_MESSAGES } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { formatDateTime } from '@/lib/format';
import { jsonResponse } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { fakeAlertsApi, rule, silence } from '../test/fake-alerts-api';
import { renderAt, toasts } from '../test/render-alerts';
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

  it('ends an active silence now after a question that names both choices, or keeps it', async () => {
    const { requestsTo } = fakeAlertsApi({
      silences: [silence(4, { rule_id: 3, rule_name: 'Heartbeat', comment: 'Deploy' })],
      routes: {
        'PUT /alerts/silences/:id': () =>
          jsonResponse(
            silence(4, { comment: 'Deploy', ends_at: '2026-11-25T09:00:00.000Z', status: 'expired' }),
          ),
      },
    });
    show();
    const end = await screen.findByRole('button', { name: 'End silence: Deploy' });
    await userEvent.click(end);
    let confirm = await screen.findByRole('alertdialog', { name: 'End this silence now?' });
    expect(confirm).toHaveTextContent('Rule: Heartbeat: the alerts it mutes notify again from now on.');
    // Keeping it is where focus starts, and sends nothing.
    expect(within(confirm).getByRole('button', { name: 'Keep Silence' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(end).toHaveFocus();
    expect(requestsTo('/alerts/silences/4', 'PUT')).toHaveLength(0);

    await userEvent.click(end);
    confirm = await screen.findByRole('alertdialog', { name: 'End this silence now?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'End Silence' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(requestsTo('/alerts/silences/4', 'PUT')[0]?.body).toEqual({
      kind: 'once',
      rule_id: 3,
      severity: null,
      comment: 'Deploy',
      starts_at: '2026-11-25T08:00:00.000Z',
      ends_at: 'now',
    });
    expect(requestsTo('/alerts/silences/4', 'DELETE')).toHaveLength(0);
    expect(await within(toasts()).findByText('Silence ended')).toBeInTheDocument();
  });

  it('says why a silence could not end, and keeps the question open', async () => {
    fakeAlertsApi({
      silences: [silence(4, { comment: 'Deploy' })],
      routes: {
        'PUT /alerts/silences/:id': () =>
          jsonResponse({ detail: 'The silence has already ended', code: 'conflict' }, 409),
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'End silence: Deploy' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'End this silence now?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'End Silence' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent('The silence has already ended');
  });

  it('deletes a silence that is not active after confirmation', async () => {
    const { requestsTo } = fakeAlertsApi({
      silences: [silence(5, { comment: 'Old deploy', status: 'expired', next_change_at: null })],
      routes: { 'DELETE /alerts/silences/:id': () => new Response(null, { status: 204 }) },
    });
    show();
    expect(await screen.findByRole('button', { name: 'Delete silence: Old deploy' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^End silence/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete silence: Old deploy' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this silence?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete Silence' }));
    await waitFor(() => expect(requestsTo('/alerts/silences/5', 'DELETE')).toHaveLength(1));
  });

  it('extends a silence, refusing an end that has passed under the field, as the server does', async () => {
    let answer = jsonResponse(
      {
        detail: ALERT_MESSAGES.endsPassed,
        code: 'validation_failed',
        errors: [{ path: 'ends_at', message: ALERT_MESSAGES.endsPassed }],
      },
      422,
    );
    const { requestsTo } = fakeAlertsApi({
      silences: [silence(4, { comment: 'Deploy' })],
      routes: { 'PUT /alerts/silences/:id': () => answer.clone() },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit silence: Deploy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Silence' });
    const until = within(dialog).getByLabelText(/Until/);
    expect(until).toHaveValue(localInput('2026-11-25T10:00:00.000Z'));
    expect(within(dialog).getByLabelText('Starts')).toHaveValue(localInput('2026-11-25T08:00:00.000Z'));
    expect(within(dialog).getByRole('textbox', { name: 'Comment' })).toHaveValue('Deploy');

    // The end it has now has passed: the form says so before sending anything.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Silence' }));
    expect(await within(dialog).findByText(ALERT_MESSAGES.endsPassed)).toBeInTheDocument();
    expect(until).toHaveAttribute('aria-invalid', 'true');
    expect(until).toHaveAccessibleDescription(ALERT_MESSAGES.endsPassed);
    expect(requestsTo('/alerts/silences/4', 'PUT')).toHaveLength(0);

    // The server's clock has the last word, and its message goes under the same field.
    await userEvent.clear(until);
    await userEvent.type(until, '2099-01-01T10:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Silence' }));
    await waitFor(() => expect(requestsTo('/alerts/silences/4', 'PUT')).toHaveLength(1));
    expect(requestsTo('/alerts/silences/4', 'PUT')[0]?.body).toEqual({
      kind: 'once',
      rule_id: null,
      severity: null,
      comment: 'Deploy',
      starts_at: '2026-11-25T08:00:00.000Z',
      ends_at: new Date('2099-01-01T10:00').toISOString(),
    });
    expect(await within(dialog).findByText(ALERT_MESSAGES.endsPassed)).toBeInTheDocument();
    expect(until).toHaveAttribute('aria-invalid', 'true');

    answer = jsonResponse(silence(4, { comment: 'Deploy', ends_at: '2099-01-01T10:00:00.000Z' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Silence' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(toasts()).findByText('Silence saved')).toBeInTheDocument();
  });

  it('refuses an end before the start in the contract’s words', async () => {
    fakeAlertsApi();
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'New Silence' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Silence' });
    await userEvent.type(within(dialog).getByLabelText('Starts'), '2099-01-02T10:00');
    await userEvent.type(within(dialog).getByLabelText(/Until/), '2099-01-01T10:00');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Comment' }), 'Deploy');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Silence' }));
    expect(await within(dialog).findByText(ALERT_MESSAGES.endsAfterStart)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Until/)).toHaveAttribute('aria-invalid', 'true');
  });
});

/** An instant as the datetime-local input shows it, in the test's time zone. */
function localInput(iso: string): string {
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
