import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { fakeSchedulesApi, PREVIEW_RUNS, run, schedule, template } from '../test/fake-schedules-api';
import { SchedulesView } from './schedules-view';

const show = () => renderWithProviders(<SchedulesView />, { path: '/messages' });

describe('Schedules', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('lists schedules with their recurrence in words, next run and last result', async () => {
    fakeSchedulesApi({
      schedules: [
        schedule(1, {
          name: 'Morning digest',
          recurrence: { kind: 'weekly', weekday: 'monday', time: '07:30' },
          timezone: 'Europe/Berlin',
          last_result: {
            run_at: '2026-11-23T06:30:00.000Z',
            outcome: 'failed',
            delivery_id: 4,
            detail: 'Bad Request',
          },
        }),
        schedule(2, { name: 'Paused one', enabled: false, next_run_at: null }),
      ],
    });
    show();
    const table = await screen.findByRole('table', { name: 'Schedules' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('Every Monday at 07:30')).toBeInTheDocument();
    expect(within(first!).getByText('Europe/Berlin')).toBeInTheDocument();
    expect(within(first!).getByText('Failed')).toBeInTheDocument();
    expect(within(first!).getByText('Bad Request')).toBeInTheDocument();
    expect(within(second!).getByText('Paused')).toBeInTheDocument();
    expect(within(second!).getByRole('checkbox', { name: 'Enabled: Paused one' })).not.toBeChecked();
  });

  it('pauses a schedule from its switch', async () => {
    const { requestsTo } = fakeSchedulesApi({
      schedules: [schedule(1, { name: 'Digest' })],
      routes: { 'POST /schedules/:id/pause': () => jsonResponse(schedule(1, { enabled: false })) },
    });
    show();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Enabled: Digest' }));
    await waitFor(() => expect(requestsTo('/schedules/1/pause', 'POST')).toHaveLength(1));
  });

  it('creates a schedule with the recurrence builder and shows the next five runs', async () => {
    const { requestsTo } = fakeSchedulesApi({
      templates: [template(1, 'Usage report')],
      routes: { 'POST /schedules': ({ body }) => jsonResponse(schedule(3, body as object), 201) },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'New Schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Schedule' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Usage');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Template' }), 'Usage report');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Repeat' }), 'Every N hours');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Hours' }), 'Every 6 hours');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Time zone' }), 'UTC');
    await userEvent.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Data' }),
      'LLM usage yesterday',
    );

    const preview = within(dialog).getByRole('region', { name: 'Next runs' });
    expect(await within(preview).findAllByRole('listitem')).toHaveLength(5);
    expect(within(preview).getByText(/Every 6 hours/)).toBeInTheDocument();
    await waitFor(() =>
      expect(requestsTo('/schedules/preview', 'POST').at(-1)?.body).toEqual({
        recurrence: { kind: 'every', hours: 6 },
        timezone: 'UTC',
      }),
    );

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Schedule' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requestsTo('/schedules', 'POST')[0]?.body).toEqual({
      name: 'Usage',
      template_id: 1,
      channel_id: null,
      topic_id: null,
      recurrence: { kind: 'every', hours: 6 },
      timezone: 'UTC',
      data_source: 'llm_usage_yesterday',
      data: {},
      ends_at: null,
      max_runs: null,
      enabled: true,
    });
  });

  it('says what is wrong with a cron expression and with the JSON data before saving', async () => {
    const { requestsTo } = fakeSchedulesApi({});
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'New Schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Schedule' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Cron');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Template' }), 'Template 1');
    await userEvent.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Repeat' }),
      'Cron expression',
    );
    const cron = within(dialog).getByRole('textbox', { name: 'Cron expression' });
    await userEvent.clear(cron);
    await userEvent.type(cron, '0 9 *');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'JSON data' }), '[[1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Schedule' }));
    expect(await within(dialog).findByText(/A cron expression has five fields/)).toBeInTheDocument();
    expect(within(dialog).getByText(/Must be a JSON object/)).toBeInTheDocument();
    expect(requestsTo('/schedules', 'POST')).toHaveLength(0);
  });

  it("puts the server's refusal of a cron expression under the field, and takes it away once corrected", async () => {
    const refusal = 'The recurrence cannot be read: Invalid value for minute: 61';
    const refuse = () =>
      jsonResponse(
        {
          detail: refusal,
          code: 'validation_failed',
          errors: [{ path: 'recurrence.cron', message: refusal }],
          request_id: '1',
        },
        422,
      );
    const { requestsTo } = fakeSchedulesApi({
      routes: {
        'POST /schedules/preview': ({ body }) =>
          (body as { recurrence: { cron?: string } }).recurrence.cron?.startsWith('61')
            ? refuse()
            : jsonResponse({ cron: '1 9 * * *', description: 'cron', runs: PREVIEW_RUNS }),
        'POST /schedules': refuse,
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'New Schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Schedule' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Cron');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Template' }), 'Template 1');
    await userEvent.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Repeat' }),
      'Cron expression',
    );
    const cron = within(dialog).getByRole('textbox', { name: 'Cron expression' });
    await userEvent.clear(cron);
    await userEvent.type(cron, '61 9 * * *');
    const preview = within(dialog).getByRole('region', { name: 'Next runs' });
    expect(await within(preview).findByText(refusal)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Schedule' }));

    await waitFor(() => expect(cron).toHaveAccessibleDescription(refusal));
    expect(cron).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    await userEvent.clear(cron);
    await userEvent.type(cron, '1 9 * * *');
    expect(await within(preview).findAllByRole('listitem')).toHaveLength(5);
    expect(within(dialog).queryByText(refusal)).not.toBeInTheDocument();
    expect(cron).not.toHaveAttribute('aria-invalid');
    expect(requestsTo('/schedules', 'POST')).toHaveLength(1);
  });

  it("marks the previous recurrence's runs busy until the changed recurrence's runs arrive", async () => {
    const everyMinute = ['2026-11-30T08:01:00.000Z', '2026-11-30T08:02:00.000Z'];
    let answerEveryMinute: (response: Response) => void = () => {};
    fakeSchedulesApi({
      routes: {
        'POST /schedules/preview': ({ body }) =>
          (body as { recurrence: { cron?: string } }).recurrence.cron === '* * * * *'
            ? new Promise<Response>((resolve) => (answerEveryMinute = resolve))
            : jsonResponse({ cron: '0 9 * * *', description: 'cron', runs: PREVIEW_RUNS }),
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'New Schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Schedule' });
    await userEvent.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Repeat' }),
      'Cron expression',
    );
    const cron = within(dialog).getByRole('textbox', { name: 'Cron expression' });
    await userEvent.clear(cron);
    await userEvent.type(cron, '0 9 * * *');
    const preview = within(dialog).getByRole('region', { name: 'Next runs' });
    expect(await within(preview).findAllByRole('listitem')).toHaveLength(PREVIEW_RUNS.length);
    await waitFor(() => expect(preview).toHaveAttribute('aria-busy', 'false'));

    await userEvent.clear(cron);
    await userEvent.type(cron, '* * * * *');
    await waitFor(() => expect(preview).toHaveAttribute('aria-busy', 'true'));
    expect(within(preview).getAllByRole('listitem')).toHaveLength(PREVIEW_RUNS.length);

    answerEveryMinute(jsonResponse({ cron: '* * * * *', description: 'cron', runs: everyMinute }));
    await waitFor(() => expect(preview).toHaveAttribute('aria-busy', 'false'));
    const times = within(preview)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('time')?.getAttribute('datetime'));
    expect(times).toEqual(everyMinute);
  });

  it('edits with the version it was loaded at, and deletes after confirmation', async () => {
    const { requestsTo } = fakeSchedulesApi({
      schedules: [schedule(1, { name: 'Digest', version: 4, data: { a: 1 } })],
      routes: {
        'PUT /schedules/:id': ({ body }) => jsonResponse(schedule(1, body as object)),
        'DELETE /schedules/:id': () => jsonResponse({ ok: true }),
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Digest' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Schedule: Digest' });
    expect(within(dialog).getByRole('textbox', { name: 'JSON data' })).toHaveValue('{\n  "a": 1\n}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Schedule' }));
    await waitFor(() => expect(requestsTo('/schedules/1', 'PUT')).toHaveLength(1));
    expect(requestsTo('/schedules/1', 'PUT')[0]?.body).toMatchObject({ version: 4, data: { a: 1 } });

    await userEvent.click(await screen.findByRole('button', { name: 'Delete Digest' }));
    const confirm = await screen.findByRole('alertdialog', { name: "Delete 'Digest'?" });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete Schedule' }));
    await waitFor(() => expect(requestsTo('/schedules/1', 'DELETE')).toHaveLength(1));
    expect(requestsTo('/schedules/1', 'DELETE')[0]?.query.get('version')).toBe('4');
  });

  it('keeps an end time in the browser’s local time and sends it as an instant', async () => {
    const endsAt = '2026-12-31T17:00:00.000Z';
    const { requestsTo } = fakeSchedulesApi({
      schedules: [schedule(1, { name: 'Digest', version: 2, ends_at: endsAt })],
      routes: { 'PUT /schedules/:id': ({ body }) => jsonResponse(schedule(1, body as object)) },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Digest' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Schedule: Digest' });
    const field = within(dialog).getByLabelText('End on');
    expect(new Date((field as HTMLInputElement).value).toISOString()).toBe(endsAt);
    await userEvent.clear(field);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Schedule' }));
    await waitFor(() => expect(requestsTo('/schedules/1', 'PUT')).toHaveLength(1));
    expect(requestsTo('/schedules/1', 'PUT')[0]?.body).toMatchObject({ ends_at: null });
  });

  it('shows the history of runs', async () => {
    fakeSchedulesApi({
      schedules: [schedule(1, { name: 'Digest' })],
      runs: [run(2, { status: 'failed', error: 'Forbidden: bot was blocked' }), run(1)],
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Runs of Digest' }));
    const table = await screen.findByRole('table', { name: 'Runs of Digest' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('Forbidden: bot was blocked')).toBeInTheDocument();
  });
});
