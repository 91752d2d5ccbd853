import { LIMIT_MESSAGES } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { fakeLimitsApi, limit, preview, usage } from '../test/fake-limits-api';
import { renderAt, toasts } from '../test/render-limits';
import { LimitsPage } from './limits-page';

type Api = Parameters<typeof fakeLimitsApi>[0];

async function openNew(api: Api = {}) {
  const fake = fakeLimitsApi(api);
  renderAt(<LimitsPage />, '/limits');
  await userEvent.click(await screen.findByRole('button', { name: 'Add Limit' }));
  return { ...fake, dialog: await screen.findByRole('dialog', { name: 'Add Limit' }) };
}

const field = (dialog: HTMLElement, name: string | RegExp) => within(dialog).getByRole('textbox', { name });
const numberField = (dialog: HTMLElement, name: string | RegExp) =>
  within(dialog).getByRole('spinbutton', { name });
const choose = (dialog: HTMLElement, name: string, option: string) =>
  userEvent.selectOptions(within(dialog).getByRole('combobox', { name }), option);
const create = (dialog: HTMLElement) =>
  userEvent.click(within(dialog).getByRole('button', { name: 'Create Limit' }));

describe('Limits > limit dialog', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('names the subject input by the scope, and asks for none for each chat or user', async () => {
    const { dialog } = await openNew();
    // A new limit is a hard cap of each chat's spend per day.
    expect(within(dialog).getByRole('combobox', { name: 'Applies to' })).toHaveValue('each_chat');
    expect(within(dialog).getByRole('radio', { name: 'Hard — deny calls' })).toBeChecked();
    expect(within(dialog).queryByRole('textbox', { name: /id|Feature/ })).not.toBeInTheDocument();

    await choose(dialog, 'Applies to', 'Chat');
    expect(field(dialog, 'Chat id')).toBeInTheDocument();
    await choose(dialog, 'Applies to', 'User');
    expect(field(dialog, 'User id')).toBeInTheDocument();
    await choose(dialog, 'Applies to', 'Feature');
    expect(field(dialog, 'Feature')).toBeInTheDocument();

    // Money to the cent, counts in whole numbers.
    expect(numberField(dialog, 'Amount (USD)')).toHaveAttribute('step', '0.01');
    await choose(dialog, 'Metric', 'Requests');
    expect(numberField(dialog, 'Amount (requests)')).toHaveAttribute('step', '1');
  });

  it('says what is wrong in the contract’s words before sending, then creates the limit', async () => {
    const { dialog, requestsTo } = await openNew({
      routes: { 'POST /limits': ({ body }) => jsonResponse(limit(7, body as object), 201) },
    });
    await choose(dialog, 'Applies to', 'Chat');
    await create(dialog);
    expect(await within(dialog).findByText(LIMIT_MESSAGES.subjectRequired)).toBeInTheDocument();
    expect(field(dialog, 'Chat id')).toHaveAttribute('aria-invalid', 'true');
    expect(numberField(dialog, 'Amount (USD)')).toHaveAccessibleDescription(LIMIT_MESSAGES.amountPositive);

    await userEvent.type(field(dialog, 'Chat id'), 'general');
    await userEvent.type(numberField(dialog, 'Amount (USD)'), '5');
    await userEvent.type(numberField(dialog, 'Raise to'), '10');
    await create(dialog);
    expect(await within(dialog).findByText(LIMIT_MESSAGES.chatId)).toBeInTheDocument();
    // A raise needs both its amount and its end.
    expect(within(dialog).getByLabelText('Until')).toHaveAccessibleDescription(LIMIT_MESSAGES.raiseBoth);

    await userEvent.clear(field(dialog, 'Chat id'));
    await userEvent.type(field(dialog, 'Chat id'), '-100123');
    await userEvent.type(within(dialog).getByLabelText('Until'), '2020-01-01T10:00');
    await create(dialog);
    expect(await within(dialog).findByText(LIMIT_MESSAGES.raiseEnded)).toBeInTheDocument();

    await userEvent.clear(within(dialog).getByLabelText('Until'));
    await userEvent.type(within(dialog).getByLabelText('Until'), '2099-01-01T10:00');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Soft — alert only' }));
    await userEvent.type(field(dialog, 'Note (optional)'), 'Noisy group');
    expect(requestsTo('/limits', 'POST')).toHaveLength(0);
    await create(dialog);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo('/limits', 'POST')[0]?.body).toEqual({
      scope: 'chat',
      subject: '-100123',
      metric: 'cost_usd',
      window: 'day',
      amount: 5,
      mode: 'soft',
      raise_amount: 10,
      raise_until: new Date('2099-01-01T10:00').toISOString(),
      note: 'Noisy group',
    });
    expect(await within(toasts()).findByText('Limit created')).toBeInTheDocument();
  });

  it('refuses a raise below the limit and requests that are not whole', async () => {
    const { dialog, requestsTo } = await openNew();
    await choose(dialog, 'Metric', 'Requests');
    await choose(dialog, 'Window', 'Per hour');
    await userEvent.type(numberField(dialog, 'Amount (requests)'), '2.5');
    await create(dialog);
    expect(
      await within(dialog).findByText('A number of requests must be a whole number'),
    ).toBeInTheDocument();

    await userEvent.clear(numberField(dialog, 'Amount (requests)'));
    await userEvent.type(numberField(dialog, 'Amount (requests)'), '100');
    await userEvent.type(numberField(dialog, 'Raise to'), '50');
    await userEvent.type(within(dialog).getByLabelText('Until'), '2099-01-01T10:00');
    await create(dialog);
    expect(await within(dialog).findByText(LIMIT_MESSAGES.raiseAbove)).toBeInTheDocument();
    expect(requestsTo('/limits', 'POST')).toHaveLength(0);
  });

  it('sends no subject for each user, even one typed before the scope changed', async () => {
    const { dialog, requestsTo } = await openNew({
      routes: { 'POST /limits': ({ body }) => jsonResponse(limit(7, body as object), 201) },
    });
    await choose(dialog, 'Applies to', 'User');
    await userEvent.type(field(dialog, 'User id'), '42');
    await choose(dialog, 'Applies to', 'Each user');
    await choose(dialog, 'Metric', 'Tokens');
    await choose(dialog, 'Window', 'Per month');
    await userEvent.type(numberField(dialog, 'Amount (tokens)'), '50000');
    await create(dialog);
    await waitFor(() => expect(requestsTo('/limits', 'POST')).toHaveLength(1));
    expect(requestsTo('/limits', 'POST')[0]?.body).toMatchObject({
      scope: 'each_user',
      subject: null,
      metric: 'tokens',
      window: 'month',
      amount: 50000,
      raise_amount: null,
      raise_until: null,
    });
  });

  it('shows who is over and near the limit being written, asking again after a change', async () => {
    const { dialog, requestsTo, route } = await openNew({
      preview: preview({
        over: [usage('-100123', 6, 5), usage('-100456', 5.5, 5)],
        near: [usage('-100789', 4.5, 5)],
      }),
    });
    const region = within(dialog).getByRole('region', { name: 'Preview' });
    expect(region).toHaveTextContent('Complete the limit to see who is over it now.');
    await userEvent.type(numberField(dialog, 'Amount (USD)'), '5');
    expect(await within(region).findByText('Over it now: 2')).toBeInTheDocument();
    expect(region).toHaveTextContent('Chat -100123: $6.00 of $5.00');
    expect(region).toHaveTextContent('Chat -100456: $5.50 of $5.00');
    expect(region).toHaveTextContent('Near it: 1');
    expect(region).toHaveTextContent('Chat -100789: $4.50 of $5.00');
    expect(requestsTo('/limits/preview', 'POST').at(-1)?.body).toEqual({
      scope: 'each_chat',
      subject: null,
      metric: 'cost_usd',
      window: 'day',
      amount: 5,
      mode: 'hard',
      raise_amount: null,
      raise_until: null,
      note: '',
    });

    let answerChanged: (response: Response) => void = () => {};
    route({ 'POST /limits/preview': () => new Promise<Response>((resolve) => (answerChanged = resolve)) });
    await userEvent.type(numberField(dialog, 'Amount (USD)'), '0');
    await waitFor(() =>
      expect(requestsTo('/limits/preview', 'POST').at(-1)?.body).toMatchObject({ amount: 50 }),
    );
    // The previous answer stays, marked busy, until the changed limit's arrives.
    expect(region).toHaveAttribute('aria-busy', 'true');
    expect(region).toHaveTextContent('Over it now: 2');
    answerChanged(jsonResponse(preview()));
    expect(await within(region).findByText('Nobody is over it now')).toBeInTheDocument();
    expect(region).toHaveAttribute('aria-busy', 'false');
    // A limit the contract refuses is not sent.
    const sent = requestsTo('/limits/preview', 'POST').length;
    await userEvent.clear(numberField(dialog, 'Amount (USD)'));
    expect(await within(region).findByText(/Complete the limit/)).toBeInTheDocument();
    expect(requestsTo('/limits/preview', 'POST')).toHaveLength(sent);
  });

  it('says so when nobody is over the limit', async () => {
    const { dialog } = await openNew({ preview: preview() });
    await userEvent.type(numberField(dialog, 'Amount (USD)'), '5');
    const region = within(dialog).getByRole('region', { name: 'Preview' });
    expect(await within(region).findByText('Nobody is over it now')).toBeInTheDocument();
    expect(region).not.toHaveTextContent('Near it');
  });

  it('shows a conflict as the form’s error and a field’s 422 under the field', async () => {
    let answer = jsonResponse(
      { detail: 'Chat -100123 has a limit of cost per day already', code: 'conflict' },
      409,
    );
    const { dialog } = await openNew({ routes: { 'POST /limits': () => answer.clone() } });
    await choose(dialog, 'Applies to', 'Chat');
    await userEvent.type(field(dialog, 'Chat id'), '-100123');
    await userEvent.type(numberField(dialog, 'Amount (USD)'), '5');
    await create(dialog);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Chat -100123 has a limit of cost per day already',
    );

    const message = 'A feature’s limit over a minute counts requests; use an hour or longer';
    answer = jsonResponse(
      { detail: 'Validation failed', code: 'validation_failed', errors: [{ path: 'window', message }] },
      422,
    );
    await create(dialog);
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Window' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('edits a limit as a whole, leaving out a raise that has ended', async () => {
    const { requestsTo } = fakeLimitsApi({
      limits: [
        limit(1, {
          mode: 'soft',
          note: 'Noisy group',
          raise_amount: 10,
          raise_until: '2020-01-01T00:00:00.000Z',
        }),
      ],
      routes: { 'PUT /limits/:id': ({ body }) => jsonResponse(limit(1, body as object)) },
    });
    renderAt(<LimitsPage />, '/limits');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Edit limit: Chat -100123, $5.00 per day' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Limit' });
    expect(within(dialog).getByRole('combobox', { name: 'Applies to' })).toHaveValue('chat');
    expect(field(dialog, 'Chat id')).toHaveValue('-100123');
    expect(numberField(dialog, 'Amount (USD)')).toHaveValue(5);
    expect(numberField(dialog, 'Raise to')).toHaveValue(null);
    expect(within(dialog).getByLabelText('Until')).toHaveValue('');
    expect(within(dialog).getByRole('radio', { name: 'Soft — alert only' })).toBeChecked();

    await userEvent.clear(numberField(dialog, 'Amount (USD)'));
    await userEvent.type(numberField(dialog, 'Amount (USD)'), '7.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Limit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo('/limits/1', 'PUT')[0]?.body).toEqual({
      scope: 'chat',
      subject: '-100123',
      metric: 'cost_usd',
      window: 'day',
      amount: 7.5,
      mode: 'soft',
      raise_amount: null,
      raise_until: null,
      note: 'Noisy group',
    });
    expect(await within(toasts()).findByText('Limit saved')).toBeInTheDocument();
  });
});
