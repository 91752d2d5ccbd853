import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { sendMessagesTo } from './support/bot-api';
import { CLOCK_SERVER_PORT } from './support/constants';
import { adminToken, signIn, unique } from './support/fixtures';
import { moveServerClock } from './support/server-clock';

/** A channel with this chat id and a template for it, through the messaging API. */
async function arrangeTemplate(
  request: APIRequestContext,
  names: { channelName: string; templateName: string; chatId: string },
) {
  const headers = { authorization: `Bearer ${await adminToken(request)}` };
  const post = async <T>(path: string, data: unknown): Promise<T> => {
    const response = await request.post(`/api/v1/messaging${path}`, { headers, data });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as T;
  };
  const channel = await post<{ id: number }>('/channels', {
    channel_name: names.channelName,
    chat_id: names.chatId,
  });
  await post('/templates', {
    template_name: names.templateName,
    channel_id: channel.id,
    message_type: 'alert',
    template_content: '<b>{{token_name}}</b> is moving',
  });
  return channel;
}

/** Send now from the template's editor, then open the delivery from the toast. */
async function sendNow(page: Page, names: { channelName: string; templateName: string }, data: string) {
  await page.goto('/admin/messages');
  await page.getByRole('button', { name: new RegExp(names.templateName) }).click();
  await page.getByRole('button', { name: 'Send now', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Send now' });
  await expect(dialog).toContainText(`Send '${names.templateName}' to ${names.channelName} now?`);
  await dialog.getByLabel('Sample data (JSON)').fill(data);
  await dialog.getByRole('button', { name: 'Send now' }).click();

  const toasts = page.getByRole('region', { name: /Notifications/ });
  await expect(toasts).toContainText(`'${names.templateName}' queued for ${names.channelName}`);
  await toasts.getByRole('button', { name: 'View delivery' }).click();
  await expect(page).toHaveURL(/\/admin\/messages\?view=deliveries&delivery=\d+$/);
  return page.getByRole('dialog', { name: /^Delivery \d+$/ });
}

test('Send now queues a template, the sender posts it and the delivery log shows it sent', async ({
  page,
  request,
}) => {
  const names = {
    channelName: unique('E2E Deliveries '),
    templateName: unique('E2E Whale Watch '),
    chatId: `@${unique('lumi_send_')}`.slice(0, 32),
  };
  const channel = await arrangeTemplate(request, names);

  await signIn(page);
  const details = await sendNow(page, names, '{"token_name": "Bonk"}');

  // The details follow the delivery until the sender has posted it.
  await expect(details.getByText('Sent', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
  await expect(details.getByRole('figure', { name: 'Rendered message' }).locator('strong')).toHaveText(
    'Bonk',
  );
  await expect(details.getByRole('list', { name: 'Attempts' })).toContainText('Attempt 1');

  const sent = await sendMessagesTo(request, names.chatId);
  expect(sent).toHaveLength(1);
  expect(sent[0]!.body).toMatchObject({ parse_mode: 'HTML', text: '<b>Bonk</b> is moving' });
  await expect(details).toContainText('Telegram message ID');

  // In the log, filtered by the channel through the URL.
  await details.getByRole('button', { name: 'Close' }).last().click();
  await page.getByRole('combobox', { name: 'Channel' }).selectOption({ label: names.channelName });
  await expect(page).toHaveURL(new RegExp(`channel=${channel.id}`));
  const rows = page.getByRole('table', { name: 'Deliveries' }).getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(names.templateName);
  await expect(rows.nth(1)).toContainText('Sent');
});

test('a delivery Telegram refused fails with its description, and Retry sends it', async ({
  page,
  request,
}) => {
  // The fake Bot API refuses the first message to a chat id with this prefix (see start-server.mjs).
  const names = {
    channelName: unique('E2E Retry '),
    templateName: unique('E2E Retry Alert '),
    chatId: `@${unique('e2e_fail_once_')}`.slice(0, 32),
  };
  const channel = await arrangeTemplate(request, names);

  await signIn(page);
  const details = await sendNow(page, names, '{"token_name": "Wif"}');

  // A 400 fails at once, with Telegram's description.
  const description = 'Bad Request: chat not found';
  await expect(details.getByText('Failed', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
  await expect(details.getByRole('alert').filter({ hasText: description })).toBeVisible();
  const attempts = details.getByRole('list', { name: 'Attempts' });
  await expect(attempts.getByRole('listitem')).toHaveCount(1);
  await expect(attempts).toContainText('Error code:400');
  await expect(attempts).toContainText(description);

  // The log shows it failed, with the error.
  await details.getByRole('button', { name: 'Close' }).last().click();
  await page.getByRole('combobox', { name: 'Channel' }).selectOption({ label: names.channelName });
  await expect(page).toHaveURL(new RegExp(`channel=${channel.id}`));
  const row = page.getByRole('table', { name: 'Deliveries' }).getByRole('row').nth(1);
  await expect(row).toContainText('Failed');
  await expect(row).toContainText(description);

  await row.getByRole('button', { name: /Details/ }).click();
  await details.getByRole('button', { name: 'Retry' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Retry delivery' });
  await confirm.getByRole('button', { name: 'Send again' }).click();
  await expect(page.getByRole('region', { name: /Notifications/ })).toContainText('Delivery queued again');

  await expect(details.getByText('Sent', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
  await expect(details).toContainText('2 attempts');
  await expect(attempts.getByRole('listitem')).toHaveCount(2);
  await expect(attempts.getByRole('listitem').nth(0)).toContainText('Attempt 1');
  await expect(attempts.getByRole('listitem').nth(1)).toContainText('Attempt 2');
  await expect(details).toContainText('Telegram message ID');

  const sent = await sendMessagesTo(request, names.chatId);
  expect(sent).toHaveLength(2);
  expect(sent.map((call) => call.body.text)).toEqual(['<b>Wif</b> is moving', '<b>Wif</b> is moving']);

  await details.getByRole('button', { name: 'Close' }).last().click();
  await expect(row).toContainText('Sent');
  await expect(row.getByRole('cell').nth(4)).toHaveText('2');
});

// On the second server, whose clock the spec moves (support/server-clock.ts).
test.describe(() => {
  test.use({ baseURL: `http://127.0.0.1:${CLOCK_SERVER_PORT}` });

  test('a schedule made in the console sends its runs, which the delivery log shows sent', async ({
    page,
    request,
  }) => {
    const names = {
      channelName: unique('E2E Schedules '),
      templateName: unique('E2E Minute Alert '),
      chatId: `@${unique('lumi_schedule_')}`.slice(0, 32),
    };
    const channel = await arrangeTemplate(request, names);
    const scheduleName = unique('E2E Every Minute ');

    await signIn(page);
    await page.goto('/admin/messages');
    await page.getByRole('tab', { name: 'Schedules' }).click();
    await expect(page).toHaveURL(/\?view=schedules$/);
    await page.getByRole('button', { name: 'New Schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Schedule' });
    await dialog.getByLabel('Name').fill(scheduleName);
    await dialog.getByLabel('Template').selectOption({ label: names.templateName });
    await dialog.getByLabel('Repeat').selectOption({ label: 'Cron expression' });
    await dialog.getByLabel('Cron expression').fill('* * * * *');
    await dialog.getByLabel('Time zone').selectOption('UTC');
    await dialog.getByLabel('JSON data').fill('{"token_name": "Popcat"}');

    // The next five runs, as the server works them out: one a minute from the next minute boundary on.
    const preview = dialog.getByRole('region', { name: 'Next runs' });
    await expect(preview).toContainText('Next runs: Cron * * * * *');
    // Until the server answers for this recurrence, the runs shown are the previous one's, marked busy.
    await expect(preview).toHaveAttribute('aria-busy', 'false');
    const runs = preview.locator('time');
    await expect(runs).toHaveCount(5);
    const runTimes = (
      await runs.evaluateAll((times) => times.map((time) => time.getAttribute('datetime')))
    ).map((time) => Date.parse(time ?? ''));
    expect(runTimes[0]! % 60_000).toBe(0);
    expect(runTimes[0]! - Date.now()).toBeLessThanOrEqual(60_000);
    expect(runTimes.slice(1).map((time, index) => time - runTimes[index]!)).toEqual([
      60_000, 60_000, 60_000, 60_000,
    ]);

    const created = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/v1/messaging/schedules') && response.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Create Schedule' }).click();
    // Its first run as the server set it when it was made: a minute after the preview's first if the
    // schedule was made once that boundary had passed (a slow machine).
    const { next_run_at: firstRun } = (await (await created).json()) as { next_run_at: string };
    expect([runTimes[0], runTimes[1]]).toContain(Date.parse(firstRun));
    const toasts = page.getByRole('region', { name: /Notifications/ });
    await expect(toasts).toContainText(`Schedule '${scheduleName}' created`);
    const row = page
      .getByRole('table', { name: 'Schedules' })
      .getByRole('row', { name: new RegExp(scheduleName) });
    await expect(row).toContainText(names.templateName);
    await expect(row).toContainText('Cron * * * * *');
    await expect(row).toContainText('No run yet');

    // The server's clock moves to its first run instead of the test waiting for it, and the server's job
    // loop (every 0.5 s here) finds the run due.
    await moveServerClock(request, CLOCK_SERVER_PORT, Date.parse(firstRun) + 1_000);

    // The log follows live (every 5 s) until the first run has gone out.
    await page.goto(`/admin/messages?view=deliveries&channel=${channel.id}`);
    const delivery = page.getByRole('table', { name: 'Deliveries' }).getByRole('row').nth(1);
    await expect(delivery).toContainText('Sent', { timeout: 30_000 });
    await expect(delivery).toContainText(names.templateName);
    const sent = await sendMessagesTo(request, names.chatId, CLOCK_SERVER_PORT);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent[0]!.body).toMatchObject({ parse_mode: 'HTML', text: '<b>Popcat</b> is moving' });
    await delivery.getByRole('button', { name: /Details/ }).click();
    const details = page.getByRole('dialog', { name: /^Delivery \d+$/ });
    await expect(details).toContainText(`Requested bySchedule ${scheduleName}`);
    await details.getByRole('button', { name: 'Close' }).last().click();

    // Paused, so it sends nothing while the later specs run.
    await page.getByRole('tab', { name: 'Schedules' }).click();
    await expect(row).toContainText('Sent');
    await row.getByRole('checkbox', { name: `Enabled: ${scheduleName}` }).click();
    await expect(toasts).toContainText(`Schedule '${scheduleName}' paused`);
    await expect(row.getByRole('checkbox', { name: `Enabled: ${scheduleName}` })).not.toBeChecked();
    await expect(row).toContainText('Paused');
  });
});
