import type { SessionUser } from '@lumi/contract';
import { ALERT_MESSAGES } from '@lumi/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { contactPoint, fakeAlertsApi, rule } from '../test/fake-alerts-api';
import { renderAt } from '../test/render-alerts';
import { AlertsPage } from './alerts-page';

const viewer: SessionUser = {
  id: 2,
  username: 'viewer',
  email: 'viewer@example.com',
  name: 'Viewer',
  role: 'viewer',
  roles: [{ id: 3, name: 'viewer', permissions: ['alerts:read'] }],
  pending_action: null,
};

const show = (entry = '/alerts') => renderAt(<AlertsPage />, entry);

describe('Alerts > Rules', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('shows the firing and pending alerts first, critical first, then every rule with its state', async () => {
    fakeAlertsApi({
      rules: [
        rule(1, { name: 'Heartbeat' }),
        rule(2, {
          name: 'Spend',
          condition: { type: 'llm_cost', usd: 5, window: 'day', provider: null, model: null },
          state: 'pending',
          last_evaluation: { value: 6, threshold: 5, unit: 'usd', holds: true, summary: 'Spent $6.00 today' },
        }),
        rule(3, { name: 'Telegram down', severity: 'critical', state: 'firing', silenced: true }),
        rule(4, { name: 'Budget', state: 'firing' }),
      ],
    });
    show();
    const active = await screen.findByRole('list', { name: 'Firing and pending alerts' });
    const cards = within(active).getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Telegram down',
      'Budget',
      'Spend',
    ]);
    expect(cards[0]).toHaveTextContent('Critical');
    expect(cards[0]).toHaveTextContent('Silenced');
    expect(cards[2]).toHaveTextContent('Spent $6.00 today');

    const table = screen.getByRole('table', { name: 'Alert rules' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toHaveTextContent('No heartbeat for 60 s');
    expect(rows[0]).toHaveTextContent('OK');
    expect(rows[1]).toHaveTextContent('LLM spend today above $5.00');
    expect(rows[1]).toHaveTextContent('Pending');
    expect(within(rows[0]!).getByRole('time')).toHaveAttribute('title');
    expect(within(rows[0]!).getByRole('checkbox', { name: 'Enabled: Heartbeat' })).toBeChecked();
  });

  it('says a rule that has not been evaluated yet is not evaluated, not OK, in the list and its card', async () => {
    signIn(viewer);
    const fresh = rule(5, { name: 'Fresh', last_evaluation: null, last_evaluated_at: null });
    fakeAlertsApi({ rules: [fresh, rule(6, { name: 'Checked' })] });
    show('/alerts?rule=5');
    const table = await screen.findByRole('table', { name: 'Alert rules' });
    const [freshRow, checkedRow] = within(table).getAllByRole('row').slice(1);
    expect(freshRow).toHaveTextContent('Not evaluated yet');
    expect(freshRow).not.toHaveTextContent('OK');
    expect(checkedRow).toHaveTextContent('OK');
    expect(checkedRow).not.toHaveTextContent('Not evaluated yet');

    const selected = screen.getByRole('region', { name: 'Fresh' });
    expect(selected).toHaveTextContent('Not evaluated yet');
    expect(selected).not.toHaveTextContent('OK');
    expect(
      screen.getByText(/Nothing firing or pending\. 1 rule has not been evaluated yet\./),
    ).toBeInTheDocument();
  });

  it('says when there is no rule yet, with a call to create one', async () => {
    fakeAlertsApi();
    show();
    expect(await screen.findByText(/No alert rules yet/)).toBeInTheDocument();
    expect(screen.getByText(/Nothing firing or pending/)).toBeInTheDocument();
    await userEvent.click(screen.getAllByRole('button', { name: 'New Rule' }).at(-1)!);
    expect(await screen.findByRole('dialog', { name: 'New Rule' })).toBeInTheDocument();
  });

  it('turns a rule off from its switch and deletes one after confirmation', async () => {
    const { requestsTo } = fakeAlertsApi({
      rules: [rule(1, { name: 'Heartbeat' })],
      routes: {
        'PUT /alerts/rules/:id': ({ body }) => jsonResponse(rule(1, body as object)),
        'DELETE /alerts/rules/:id': () => new Response(null, { status: 204 }),
      },
    });
    show();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Enabled: Heartbeat' }));
    await waitFor(() => expect(requestsTo('/alerts/rules/1', 'PUT')[0]?.body).toEqual({ enabled: false }));

    await userEvent.click(screen.getByRole('button', { name: 'Delete Heartbeat' }));
    const confirm = await screen.findByRole('alertdialog', { name: "Delete 'Heartbeat'?" });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete Rule' }));
    await waitFor(() => expect(requestsTo('/alerts/rules/1', 'DELETE')).toHaveLength(1));
  });

  it('shows the rule an alert’s link names first: what fired, since when, what to do (?rule=)', async () => {
    fakeAlertsApi({
      rules: [
        rule(6, { name: 'Other' }),
        rule(7, {
          name: 'Failing calls',
          severity: 'critical',
          state: 'firing',
          state_since: '2026-11-28T09:30:00.000Z',
          condition: {
            type: 'llm_failure_rate',
            percent: 20,
            minutes: 10,
            min_calls: 5,
            provider: null,
            model: null,
          },
          last_evaluation: {
            value: 35,
            threshold: 20,
            unit: 'percent',
            holds: true,
            summary: '35 % of 40 LLM calls failed in 10 min',
          },
        }),
      ],
      contactPoints: [contactPoint(1)],
    });
    const router = show('/alerts?rule=7');
    const focus = await screen.findByRole('region', { name: 'Failing calls' });
    expect(focus).toHaveTextContent('35 % of 40 LLM calls failed in 10 min');
    expect(focus).toHaveTextContent('Critical');
    expect(focus).toHaveTextContent('Firing since');
    expect(within(focus).getByRole('time')).toHaveAttribute('dateTime', '2026-11-28T09:30:00.000Z');
    expect(within(focus).getByRole('link', { name: 'Open the failed calls' })).toHaveAttribute(
      'href',
      '/metrics?tab=calls&failed=true',
    );
    // It comes before the lists, which follow once it is painted; the editor opens only when asked for.
    expect(focus.compareDocumentPosition(await screen.findByRole('table', { name: 'Alert rules' }))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await userEvent.click(within(focus).getByRole('button', { name: 'Edit Rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Rule: Failing calls' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Failing calls');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(within(focus).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByRole('region', { name: 'Failing calls' })).not.toBeInTheDocument();
  });

  it('renders the other rules only once the rule an alert’s link names is painted', async () => {
    // Animation frames run when the test says: the first one after the focus is the frame it is painted in.
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    try {
      fakeAlertsApi({ rules: [rule(7, { name: 'Heartbeat', state: 'firing' }), rule(8, { name: 'Spend' })] });
      show('/alerts?rule=7');
      expect(await screen.findByRole('region', { name: 'Heartbeat' })).toBeInTheDocument();
      expect(screen.getByRole('status', { name: 'Loading the other rules' })).toBeInTheDocument();
      expect(screen.queryByRole('table', { name: 'Alert rules' })).not.toBeInTheDocument();
      act(() => frames.splice(0).forEach((frame) => frame(performance.now())));
      const table = await screen.findByRole('table', { name: 'Alert rules' });
      expect(within(table).getAllByRole('row').slice(1)).toHaveLength(2);
      expect(screen.queryByRole('status', { name: 'Loading the other rules' })).not.toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('while the rules load, holds the place of the rule an alert’s link names, with the parts first-load.js fills', async () => {
    fakeAlertsApi({ rules: [rule(7, { name: 'Heartbeat', state: 'firing' })] });
    show('/alerts?rule=7');
    const frame = screen.getByRole('region', { name: 'Loading the alert' });
    for (const part of ['name', 'what', 'since', 'next-heading', 'next'])
      expect(frame.querySelector(`[data-brief="${part}"]`)).not.toBeNull();
    expect(await screen.findByRole('region', { name: 'Heartbeat' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Loading the alert' })).not.toBeInTheDocument();
  });

  it('says so when a link names a rule that is gone, and forgets it when dismissed', async () => {
    fakeAlertsApi({ rules: [rule(7, { name: 'Heartbeat' })], contactPoints: [contactPoint(1)] });
    const router = show('/alerts?rule=99');
    expect(await screen.findByText('There is no rule 99')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /dismiss/i }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByText('There is no rule 99')).not.toBeInTheDocument();
  });

  it('edits a rule, an optional name left empty going back as null', async () => {
    const { requestsTo } = fakeAlertsApi({
      rules: [
        rule(2, {
          name: 'Errors',
          condition: { type: 'errors', count: 5, minutes: 10, source: null },
          renotify_minutes: 30,
        }),
      ],
      contactPoints: [contactPoint(1)],
      routes: { 'PUT /alerts/rules/:id': ({ body }) => jsonResponse(rule(2, body as object)) },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Errors' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Rule: Errors' });
    expect(within(dialog).getByRole('textbox', { name: 'Source (optional)' })).toHaveValue('');
    const count = within(dialog).getByRole('textbox', { name: 'More than (errors)' });
    await userEvent.clear(count);
    await userEvent.type(count, '8');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Rule' }));
    await waitFor(() => expect(requestsTo('/alerts/rules/2', 'PUT')).toHaveLength(1));
    expect(requestsTo('/alerts/rules/2', 'PUT')[0]?.body).toMatchObject({
      condition: { type: 'errors', count: 8, minutes: 10, source: null },
      renotify_minutes: 30,
      contact_point_ids: [1],
    });
  });

  it('is read only without alerts:write: no create, edit, delete, and the switches are disabled', async () => {
    signIn(viewer);
    fakeAlertsApi({ rules: [rule(1, { name: 'Heartbeat', state: 'firing' })] });
    show('/alerts?rule=1');
    const table = await screen.findByRole('table', { name: 'Alert rules' });
    expect(within(table).getByRole('checkbox', { name: 'Enabled: Heartbeat' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'New Rule' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit|Delete/ })).not.toBeInTheDocument();
    // A link to a rule shows it on top, without the way to its editor.
    const focus = screen.getByRole('region', { name: 'Heartbeat' });
    expect(within(focus).getByRole('link', { name: 'Open the Overview' })).toHaveAttribute(
      'href',
      '/overview',
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('denies a user without alerts:read', () => {
    signIn({ ...viewer, roles: [{ id: 3, name: 'viewer', permissions: ['metrics:read'] }] });
    fakeAlertsApi();
    show();
    expect(screen.getByRole('alert')).toHaveTextContent("You don't have permission to view alerts.");
  });
});

describe('Alerts > rule editor', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  async function openNew(api: Parameters<typeof fakeAlertsApi>[0] = {}) {
    const fake = fakeAlertsApi({ contactPoints: [contactPoint(1, { name: 'Ops chat' })], ...api });
    show();
    await userEvent.click((await screen.findAllByRole('button', { name: 'New Rule' }))[0]!);
    return { ...fake, dialog: await screen.findByRole('dialog', { name: 'New Rule' }) };
  }

  it('shows the inputs of the chosen condition type, with their units', async () => {
    const { dialog } = await openNew();
    const condition = within(dialog).getByRole('combobox', { name: 'Condition' });
    expect(within(dialog).getByRole('textbox', { name: 'No heartbeat for (s)' })).toHaveValue('60');

    await userEvent.selectOptions(condition, 'LLM spend');
    expect(within(dialog).getByRole('textbox', { name: 'Spend above (USD)' })).toHaveValue('10');
    expect(within(dialog).getByRole('combobox', { name: 'Window' })).toHaveValue('day');
    expect(within(dialog).getByRole('textbox', { name: 'Provider (optional)' })).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Model (optional)' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: /No heartbeat/ })).not.toBeInTheDocument();

    await userEvent.selectOptions(condition, 'Market data stale');
    expect(within(dialog).getByRole('textbox', { name: 'Last candle older than (min)' })).toBeInTheDocument();
    expect(
      within(dialog).getByRole('checkbox', { name: 'Also when the websocket is not connected' }),
    ).toBeChecked();

    await userEvent.selectOptions(condition, 'Bot not connected to Telegram');
    expect(
      within(within(dialog).getByRole('group', { name: 'When' })).queryAllByRole('textbox'),
    ).toHaveLength(0);
  });

  it('says what is wrong before saving, in the contract’s words', async () => {
    const { dialog, requestsTo } = await openNew();
    const seconds = within(dialog).getByRole('textbox', { name: 'No heartbeat for (s)' });
    await userEvent.clear(seconds);
    await userEvent.type(seconds, '5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Rule' }));
    expect(await within(dialog).findByText(ALERT_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(ALERT_MESSAGES.heartbeatSeconds)).toBeInTheDocument();
    expect(seconds).toHaveAttribute('aria-invalid', 'true');

    // With the fields right, an enabled rule still needs somebody to tell.
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Heartbeat');
    await userEvent.type(seconds, '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Rule' }));
    expect(await within(dialog).findByText(ALERT_MESSAGES.contactPointsRequired)).toBeInTheDocument();
    expect(requestsTo('/alerts/rules', 'POST')).toHaveLength(0);
  });

  it('shows what the condition evaluates to now, asking again after a change', async () => {
    let answerChanged: (response: Response) => void = () => {};
    const { dialog, requestsTo } = await openNew({
      routes: {
        'POST /alerts/rules/preview': ({ body }) =>
          (body as { condition: { seconds: number } }).condition.seconds === 900
            ? new Promise<Response>((resolve) => (answerChanged = resolve))
            : jsonResponse({
                value: 340,
                threshold: 60,
                unit: 's',
                holds: true,
                summary: 'No heartbeat for 340 s (threshold 60 s)',
              }),
      },
    });
    const line = within(dialog).getByRole('region', { name: 'Evaluates now' });
    expect(await within(line).findByText('No heartbeat for 340 s (threshold 60 s)')).toBeInTheDocument();
    expect(within(line).getByText('Would fire')).toBeInTheDocument();
    expect(requestsTo('/alerts/rules/preview', 'POST')[0]?.body).toEqual({
      condition: { type: 'heartbeat_missing', seconds: 60 },
    });

    const seconds = within(dialog).getByRole('textbox', { name: 'No heartbeat for (s)' });
    await userEvent.clear(seconds);
    await userEvent.type(seconds, '900');
    await waitFor(() =>
      expect(requestsTo('/alerts/rules/preview', 'POST').at(-1)?.body).toEqual({
        condition: { type: 'heartbeat_missing', seconds: 900 },
      }),
    );
    // The previous answer stays, marked busy, until the changed condition's arrives.
    expect(line).toHaveAttribute('aria-busy', 'true');
    expect(line).toHaveTextContent('No heartbeat for 340 s (threshold 60 s)');
    answerChanged(
      jsonResponse({
        value: 340,
        threshold: 900,
        unit: 's',
        holds: false,
        summary: 'No heartbeat for 340 s (threshold 900 s)',
      }),
    );
    expect(await within(line).findByText('No heartbeat for 340 s (threshold 900 s)')).toBeInTheDocument();
    expect(line).toHaveAttribute('aria-busy', 'false');
    // A condition the contract refuses is not sent.
    const sent = requestsTo('/alerts/rules/preview', 'POST').length;
    await userEvent.clear(seconds);
    expect(await within(line).findByText(/Complete the condition/)).toBeInTheDocument();
    expect(requestsTo('/alerts/rules/preview', 'POST')).toHaveLength(sent);
  });

  it('creates a rule, and puts the server’s field errors under their fields', async () => {
    let answer = jsonResponse(
      {
        detail: 'Validation failed',
        code: 'validation_error',
        errors: [{ path: 'condition.provider', message: 'No budget is set for this provider' }],
      },
      422,
    );
    const { dialog, requestsTo } = await openNew({
      routes: { 'POST /alerts/rules': () => answer.clone() },
    });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Budget');
    await userEvent.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Condition' }),
      'Token budget usage',
    );
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Provider' }), 'gemini');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Severity' }), 'Critical');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Ops chat/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Rule' }));

    expect(await within(dialog).findByText('No budget is set for this provider')).toBeInTheDocument();
    expect(requestsTo('/alerts/rules', 'POST')[0]?.body).toEqual({
      name: 'Budget',
      condition: { type: 'budget_usage', provider: 'gemini', percent: 80 },
      severity: 'critical',
      pending_seconds: 0,
      no_data: 'keep',
      renotify_minutes: 0,
      notify_on_resolve: true,
      contact_point_ids: [1],
      enabled: true,
    });

    answer = jsonResponse(rule(9, { name: 'Budget' }), 201);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Rule' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
