import type { SessionUser } from '@lumi/contract';
import { ALERT_MESSAGES } from '@lumi/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { channel, contactPoint, fakeAlertsApi, rule, topic } from '../test/fake-alerts-api';
import { renderAt, toasts } from '../test/render-alerts';
import { AlertsPage } from './alerts-page';

const show = () => renderAt(<AlertsPage />, '/alerts?view=contact-points');

const notification = {
  id: 5,
  contact_point_id: 1,
  rule_id: null,
  rule_name: null,
  kind: 'test',
  status: 'queued',
  attempts: 0,
  next_attempt_at: null,
  response_status: null,
  error: null,
  delivery_id: 42,
  created_at: '2026-11-25T08:00:00.000Z',
  sent_at: null,
};

describe('Alerts > Contact points', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('lists contact points with their target and the rules that use them', async () => {
    fakeAlertsApi({
      contactPoints: [
        contactPoint(1, { name: 'Ops', template_name: 'Short alert', rule_count: 2 }),
        contactPoint(2, {
          name: 'Pager',
          type: 'webhook',
          channel_id: null,
          channel_name: null,
          url: 'https://hooks.example.com/lumi',
        }),
      ],
      rules: [rule(1, { name: 'Heartbeat', contact_point_ids: [1] }), rule(2, { contact_point_ids: [1] })],
    });
    show();
    const table = await screen.findByRole('table', { name: 'Contact points' });
    const [ops, pager] = within(table).getAllByRole('row').slice(1);
    expect(ops).toHaveTextContent('Telegram');
    expect(ops).toHaveTextContent('Ops chat');
    expect(ops).toHaveTextContent('Template: Short alert');
    expect(within(ops!).getByText('2 rules')).toHaveAttribute('title', 'Heartbeat, Rule 2');
    expect(pager).toHaveTextContent('Webhook');
    expect(pager).toHaveTextContent('https://hooks.example.com/lumi');
    expect(pager).toHaveTextContent('No rule');
  });

  it('creates a Telegram contact point with a topic of its channel and the default template', async () => {
    const { requestsTo } = fakeAlertsApi({
      channels: [channel(1, 'Ops chat'), channel(2, 'Forum')],
      topics: { 2: [topic(7, 2, 'Incidents')] },
      routes: {
        'POST /alerts/contact-points': ({ body }) =>
          jsonResponse({ ...contactPoint(3, body as object), secret: null }, 201),
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'New Contact Point' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Contact Point' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Contact Point' }));
    expect(await within(dialog).findByText(ALERT_MESSAGES.channelRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(ALERT_MESSAGES.contactPointNameRequired)).toBeInTheDocument();

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Incidents');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Channel' }), 'Forum');
    await userEvent.selectOptions(
      await within(dialog).findByRole('combobox', { name: 'Topic' }),
      'Incidents',
    );
    expect(within(dialog).getByRole('combobox', { name: 'Template' })).toHaveDisplayValue('alert (default)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Contact Point' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo('/alerts/contact-points', 'POST')[0]?.body).toEqual({
      name: 'Incidents',
      type: 'telegram',
      channel_id: 2,
      topic_id: 7,
      template_id: null,
    });
  });

  it('shows a new webhook’s secret once, with a copy button', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    fakeAlertsApi({
      routes: {
        'POST /alerts/contact-points': ({ body }) =>
          jsonResponse(
            { ...contactPoint(3, { ...(body as object), channel_id: null }), secret: 's3cr3t-hex' },
            201,
          ),
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'New Contact Point' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Contact Point' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Pager');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'Webhook');
    const url = within(dialog).getByRole('textbox', { name: 'URL' });
    await userEvent.type(url, 'ftp://nope');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Contact Point' }));
    expect(await within(dialog).findByText(ALERT_MESSAGES.url)).toBeInTheDocument();
    await userEvent.clear(url);
    await userEvent.type(url, 'https://hooks.example.com/lumi');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Contact Point' }));

    const secret = await screen.findByRole('dialog', { name: 'Signing secret of Pager' });
    expect(secret).toHaveTextContent('you will not see it again');
    expect(within(secret).getByLabelText('Signing secret')).toHaveTextContent('s3cr3t-hex');
    await userEvent.click(within(secret).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('s3cr3t-hex');
    expect(within(secret).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await userEvent.click(within(secret).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('sends a test notification and says it is queued, with a link to its delivery', async () => {
    const { requestsTo } = fakeAlertsApi({
      contactPoints: [contactPoint(1, { name: 'Ops' })],
      routes: { 'POST /alerts/contact-points/:id/test': () => jsonResponse(notification) },
    });
    const router = show();
    await userEvent.click(await screen.findByRole('button', { name: 'Send test notification to Ops' }));
    expect(await within(toasts()).findByText("Test notification to 'Ops' queued")).toBeInTheDocument();
    expect(requestsTo('/alerts/contact-points/1/test', 'POST')).toHaveLength(1);
    // A click without the pointer events sonner's swipe handling needs (jsdom has no pointer capture).
    fireEvent.click(within(toasts()).getByRole('button', { name: 'View delivery' }));
    expect(router.state.location.search).toBe('?view=deliveries&delivery=42');
  });

  it('says why a test notification failed', async () => {
    fakeAlertsApi({
      contactPoints: [contactPoint(1, { name: 'Pager', type: 'webhook', url: 'https://x.example' })],
      routes: {
        'POST /alerts/contact-points/:id/test': () =>
          jsonResponse({
            ...notification,
            status: 'failed',
            delivery_id: null,
            response_status: 500,
            error: 'HTTP 500',
          }),
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Send test notification to Pager' }));
    expect(await within(toasts()).findByText("Test notification to 'Pager' failed")).toBeInTheDocument();
    expect(toasts()).toHaveTextContent('HTTP 500');
  });

  it('lists the recent notifications of a contact point', async () => {
    fakeAlertsApi({
      contactPoints: [contactPoint(1, { name: 'Pager', type: 'webhook', url: 'https://x.example' })],
      routes: {
        'GET /alerts/contact-points/:id/notifications': () =>
          jsonResponse({
            notifications: [
              {
                ...notification,
                id: 6,
                rule_id: 1,
                rule_name: 'Heartbeat',
                kind: 'firing',
                status: 'failed',
                attempts: 3,
                response_status: 502,
                error: 'Bad gateway',
                delivery_id: null,
              },
            ],
            next_cursor: null,
          }),
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications of Pager' }));
    const table = await screen.findByRole('table', { name: 'Notifications of Pager' });
    const row = within(table).getAllByRole('row')[1]!;
    for (const text of ['Heartbeat', 'Firing', 'Failed', '3', '502', 'Bad gateway'])
      expect(row).toHaveTextContent(text);
  });

  it('shows why a contact point in use cannot be deleted', async () => {
    fakeAlertsApi({
      contactPoints: [contactPoint(1, { name: 'Ops', rule_count: 1 })],
      routes: {
        'DELETE /alerts/contact-points/:id': () =>
          jsonResponse({ detail: 'Rules use this contact point: Heartbeat', code: 'conflict' }, 409),
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Ops' }));
    const confirm = await screen.findByRole('alertdialog', { name: "Delete 'Ops'?" });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete Contact Point' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(
      'Rules use this contact point: Heartbeat',
    );
  });

  it('is read only without alerts:write', async () => {
    const viewer: SessionUser = {
      id: 2,
      username: 'viewer',
      email: 'viewer@example.com',
      name: 'Viewer',
      role: 'viewer',
      roles: [{ id: 3, name: 'viewer', permissions: ['alerts:read'] }],
      pending_action: null,
    };
    signIn(viewer);
    fakeAlertsApi({ contactPoints: [contactPoint(1, { name: 'Ops' })] });
    show();
    expect(await screen.findByRole('button', { name: 'Notifications of Ops' })).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: /New Contact Point|Edit|Delete|Send test/ }),
    ).not.toBeInTheDocument();
  });
});
