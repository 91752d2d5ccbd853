import { LIMIT_MESSAGES } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { formatDateTime } from '@/lib/format';
import { jsonResponse } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { accessRule, fakeLimitsApi } from '../test/fake-limits-api';
import { renderAt, toasts } from '../test/render-limits';
import { LimitsPage } from './limits-page';

const show = () => renderAt(<LimitsPage />, '/limits?view=access');

async function openAdd(api: Parameters<typeof fakeLimitsApi>[0] = {}) {
  const fake = fakeLimitsApi(api);
  show();
  await userEvent.click(await screen.findByRole('button', { name: 'Add Entry' }));
  return { ...fake, dialog: await screen.findByRole('dialog', { name: 'Add Ban or Allowlist Entry' }) };
}

describe('Limits > Bans and allowlist', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('lists each entry with its action, who, reason and expiry, an expired one greyed as Expired', async () => {
    const until = '2099-01-01T09:00:00.000Z';
    const ended = '2026-11-20T09:00:00.000Z';
    fakeLimitsApi({
      rules: [
        accessRule(1),
        accessRule(2, {
          action: 'allow',
          subject_kind: 'user',
          subject: '42',
          reason: 'VIP',
          expires_at: until,
        }),
        accessRule(3, { subject: '-100555', reason: 'Flooding', expires_at: ended, active: false }),
      ],
    });
    show();
    const table = await screen.findByRole('table', { name: 'Bans and allowlist' });
    const [ban, allow, expired] = within(table).getAllByRole('row').slice(1);
    expect(ban).toHaveTextContent('Chat -100999');
    expect(ban).toHaveTextContent('Ban');
    expect(ban).toHaveTextContent('Spam');
    expect(ban).toHaveTextContent('Never');
    expect(ban).not.toHaveTextContent('Expired');
    expect(allow).toHaveTextContent('User 42');
    expect(allow).toHaveTextContent('Allow');
    expect(allow).toHaveTextContent(formatDateTime(until));
    expect(expired).toHaveTextContent('Chat -100555');
    expect(expired).toHaveTextContent(`Expired${formatDateTime(ended)}`);
    expect(within(expired!).getByText('Chat -100555')).toHaveClass('text-muted-foreground');
  });

  it('shows 50 entries at a time, newest first, and loads older ones', async () => {
    const { requestsTo } = fakeLimitsApi({
      rulesPageSize: 2,
      rules: [3, 2, 1].map((id) => accessRule(id, { subject: `-10099${id}` })),
    });
    show();
    const table = await screen.findByRole('table', { name: 'Bans and allowlist' });
    expect(within(table).getAllByRole('row').slice(1)).toHaveLength(2);
    expect(screen.getByText(/Showing 2 of 3\./)).toBeInTheDocument();
    expect(requestsTo('/limits/access-rules')[0]?.query.get('limit')).toBe('50');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(table).getAllByRole('row').slice(1)).toHaveLength(3));
    expect(requestsTo('/limits/access-rules').at(-1)?.query.get('cursor')).toBe('2');
    expect(within(table).getAllByRole('row').at(-1)).toHaveTextContent('-100991');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('says when nobody is banned or allowlisted', async () => {
    fakeLimitsApi();
    show();
    expect(await screen.findByText('No chat or user is banned or allowlisted.')).toBeInTheDocument();
  });

  it('adds an allowlist entry, checking the id, the reason and the expiry first', async () => {
    const { dialog, requestsTo } = await openAdd({
      routes: {
        'POST /limits/access-rules': ({ body }) => jsonResponse(accessRule(9, body as object), 201),
      },
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Entry' }));
    expect(await within(dialog).findByText(LIMIT_MESSAGES.reasonRequired)).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Chat id' })).toHaveAttribute('aria-invalid', 'true');

    await userEvent.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Action' }),
      'Allow: no limit applies (a ban still wins)',
    );
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Chat or user' }), 'User');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'User id' }), '42');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'VIP customer');
    const expires = within(dialog).getByLabelText('Expires (optional)');
    await userEvent.type(expires, '2020-01-01T10:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Entry' }));
    expect(await within(dialog).findByText(LIMIT_MESSAGES.expiryPassed)).toBeInTheDocument();
    expect(requestsTo('/limits/access-rules', 'POST')).toHaveLength(0);

    await userEvent.clear(expires);
    await userEvent.type(expires, '2099-01-01T10:00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Entry' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo('/limits/access-rules', 'POST')[0]?.body).toEqual({
      action: 'allow',
      subject_kind: 'user',
      subject: '42',
      reason: 'VIP customer',
      expires_at: new Date('2099-01-01T10:00').toISOString(),
    });
    expect(await within(toasts()).findByText('Allowlist entry created')).toBeInTheDocument();
  });

  it('bans a chat until deleted, and shows a conflict as the form’s error', async () => {
    let answer = jsonResponse({ detail: 'Chat -100999 has an entry already', code: 'conflict' }, 409);
    const { dialog, requestsTo } = await openAdd({
      routes: { 'POST /limits/access-rules': () => answer.clone() },
    });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Chat id' }), '-100999');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Spam');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Entry' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Chat -100999 has an entry already');
    expect(requestsTo('/limits/access-rules', 'POST')[0]?.body).toEqual({
      action: 'ban',
      subject_kind: 'chat',
      subject: '-100999',
      reason: 'Spam',
      expires_at: null,
    });

    answer = jsonResponse(accessRule(9), 201);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Entry' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(toasts()).findByText('Ban created')).toBeInTheDocument();
  });

  it('deletes an entry after confirmation', async () => {
    const { requestsTo } = fakeLimitsApi({
      rules: [accessRule(4)],
      routes: { 'DELETE /limits/access-rules/:id': () => jsonResponse({ ok: true }) },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Ban of Chat -100999' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this ban?' });
    expect(confirm).toHaveTextContent('Chat -100999 may make calls again, within its limits.');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete Entry' }));
    await waitFor(() => expect(requestsTo('/limits/access-rules/4', 'DELETE')).toHaveLength(1));
    expect(await within(toasts()).findByText('Ban deleted')).toBeInTheDocument();
  });
});
