import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_PORT } from './support/constants';
import { adminToken, signIn, unique } from './support/fixtures';

/** The fake Telegram Bot API that start-server.mjs runs beside the server (its port + 1000). */
const BOT_API = `http://127.0.0.1:${E2E_PORT + 1000}`;

interface BotRequest {
  method: string;
  params: Record<string, unknown>;
}

async function botRequests(request: APIRequestContext): Promise<BotRequest[]> {
  return (await (await request.get(`${BOT_API}/requests`)).json()) as BotRequest[];
}

test('Send now queues a template, the sender posts it and the delivery log shows it sent', async ({
  page,
  request,
}) => {
  const headers = { authorization: `Bearer ${await adminToken(request)}` };
  const post = async <T>(path: string, data: unknown): Promise<T> => {
    const response = await request.post(`/api/v1/messaging${path}`, { headers, data });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as T;
  };
  const channelName = unique('E2E Deliveries ');
  const templateName = unique('E2E Whale Watch ');
  const chatId = `@${unique('lumi_send_')}`.slice(0, 32);
  const channel = await post<{ id: number }>('/channels', { channel_name: channelName, chat_id: chatId });
  await post('/templates', {
    template_name: templateName,
    channel_id: channel.id,
    message_type: 'alert',
    template_content: '<b>{{token_name}}</b> is moving',
  });

  await signIn(page);
  await page.goto('/admin/messages');
  await page.getByRole('button', { name: new RegExp(templateName) }).click();
  await page.getByRole('button', { name: 'Send now', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Send now' });
  await expect(dialog).toContainText(`Send '${templateName}' to ${channelName} now?`);
  await dialog.getByLabel('Sample data (JSON)').fill('{"token_name": "Bonk"}');
  await dialog.getByRole('button', { name: 'Send now' }).click();

  const toasts = page.getByRole('region', { name: /Notifications/ });
  await expect(toasts).toContainText(`'${templateName}' queued for ${channelName}`);
  await toasts.getByRole('button', { name: 'View delivery' }).click();
  await expect(page).toHaveURL(/\/admin\/messages\?view=deliveries&delivery=\d+$/);

  // The details follow the delivery until the sender has posted it.
  const details = page.getByRole('dialog', { name: /^Delivery \d+$/ });
  await expect(details.getByText('Sent', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
  await expect(details.getByRole('figure', { name: 'Rendered message' }).locator('strong')).toHaveText(
    'Bonk',
  );
  await expect(details.getByRole('list', { name: 'Attempts' })).toContainText('Attempt 1');

  const sent = (await botRequests(request)).filter(
    (call) => call.method === 'sendMessage' && call.params.chat_id === chatId,
  );
  expect(sent).toHaveLength(1);
  expect(sent[0]!.params).toMatchObject({ parse_mode: 'HTML', text: '<b>Bonk</b> is moving' });
  await expect(details).toContainText('Telegram message ID');

  // In the log, filtered by the channel through the URL.
  await details.getByRole('button', { name: 'Close' }).last().click();
  await page.getByRole('combobox', { name: 'Channel' }).selectOption({ label: channelName });
  await expect(page).toHaveURL(new RegExp(`channel=${channel.id}`));
  const rows = page.getByRole('table', { name: 'Deliveries' }).getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(templateName);
  await expect(rows.nth(1)).toContainText('Sent');
});
