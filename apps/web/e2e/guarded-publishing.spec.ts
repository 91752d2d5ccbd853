import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminToken, signIn, unique } from './support/fixtures';

/**
 * Guarded publishing, walked as an operator: a save that would break sending is refused at its spot,
 * Send now shows the message it sends and waits for valid data, unsaved edits are not dropped without a
 * question, and a refused send is kept in the delivery log and counted on the Overview.
 */

async function arrange(request: APIRequestContext) {
  const headers = { authorization: `Bearer ${await adminToken(request)}` };
  const post = async <T>(path: string, data: unknown): Promise<T> => {
    const response = await request.post(`/api/v1/messaging${path}`, { headers, data });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as T;
  };
  const channelName = unique('E2E Guarded ');
  const channel = await post<{ id: number }>('/channels', {
    channel_name: channelName,
    chat_id: `@${unique('lumi_guard_')}`.slice(0, 32),
  });
  const templateName = unique('E2E Dashboard ');
  await post('/templates', {
    template_name: templateName,
    channel_id: channel.id,
    message_type: 'dashboard',
    template_content: '<b>{{token_name}}</b> at {{price_usd}}',
  });
  return { headers, channel, channelName, templateName, post };
}

async function replaceContent(page: Page, text: string) {
  await page.locator('.monaco-editor').first().click();
  await page.keyboard.press('Control+A');
  // insertText bypasses Monaco's auto-closing of brackets and tags, so the text arrives as written.
  await page.keyboard.insertText(text);
}

test('a save that would break sending is refused at its spot, and an unsaved edit is not lost without a question', async ({
  page,
  request,
}) => {
  const { templateName } = await arrange(request);
  await signIn(page);
  await page.goto('/admin/messages');
  await page.getByRole('button', { name: new RegExp(templateName) }).click();

  await replaceContent(page, 'Prices\n<b>bold {{token_name}}</i>');
  const problems = page.getByText('Telegram would refuse this template with its example data:');
  await expect(problems).toBeVisible();
  await expect(page.getByText(/^Line 2, column 23: Telegram would refuse this message/)).toBeVisible();
  // Monaco marks the spot.
  await expect(page.locator('.monaco-editor .squiggly-error').first()).toBeAttached();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(/^Not saved: Line 2, column 23: /)).toBeVisible();
  await expect(
    page.getByRole('heading', { name: new RegExp(`Edit Template: ${templateName}`) }),
  ).toBeVisible();
  await expect(page.getByText('Version 1', { exact: true })).toBeVisible();

  // Leaving the edit asks first; keeping it keeps the text.
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  const question = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
  await question.getByRole('button', { name: 'Keep editing' }).click();
  await expect(problems).toBeVisible();
  await page.getByRole('link', { name: 'Overview' }).first().click();
  await question.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(/\/admin\/overview$/);
});

test('Send now waits for valid data and shows the message it sends; a refused send is kept and counted', async ({
  page,
  request,
}) => {
  const { headers, channel, channelName, templateName, post } = await arrange(request);
  await signIn(page);
  await page.goto('/admin/messages');
  await page.getByRole('button', { name: new RegExp(templateName) }).click();
  await page.getByRole('button', { name: 'Send now', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Send now' });
  await expect(dialog).toContainText(`Send '${templateName}' to ${channelName} now?`);
  const data = dialog.getByLabel('Sample data (JSON)');
  // Only the template's own variables are offered.
  expect(Object.keys(JSON.parse(await data.inputValue()) as object).sort()).toEqual([
    'price_usd',
    'token_name',
  ]);

  await data.fill('{ "token_name": "TEST"');
  await expect(dialog.getByText(/^Not valid JSON: .*Sending is off until it is fixed/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Send now' })).toBeDisabled();
  await data.fill('{ "token_name": "Bonk", "price_usd": 2 }');
  const message = dialog.getByRole('figure', { name: 'Message to send' });
  await expect(message.locator('strong')).toHaveText('Bonk');
  await expect(dialog.getByRole('button', { name: 'Send now' })).toBeEnabled();
  await dialog.getByRole('button', { name: "Don't send" }).click();
  await expect(dialog).toBeHidden();

  // A send the pipeline refuses (a raw value Telegram would not parse) answers 422 with the kept delivery.
  const raw = await post<{ id: number }>('/templates', {
    template_name: unique('E2E Raw '),
    channel_id: channel.id,
    template_content: '{{{html}}}',
  });
  const refused = await request.post('/api/v1/messaging/deliveries', {
    headers,
    data: { template_id: raw.id, data: { html: '<b>never closed' } },
  });
  expect(refused.status()).toBe(422);
  const { delivery_id: deliveryId } = (await refused.json()) as { delivery_id: number };

  await page.goto('/admin/overview');
  const card = page.getByRole('region', { name: 'Deliveries' });
  const refusedTile = card.getByRole('link', { name: /^Refused/ });
  await expect(refusedTile).not.toHaveText(/Refused\s*0\b/);
  await refusedTile.click();
  await expect(page).toHaveURL(/view=deliveries&status=refused/);
  const table = page.getByRole('table', { name: 'Deliveries' });
  await expect(table).toContainText('Refused');
  await expect(table).toContainText('<b> is never closed');
  await page.goto(`/admin/messages?view=deliveries&delivery=${deliveryId}`);
  await expect(page.getByRole('dialog', { name: `Delivery ${deliveryId}` })).toContainText('Refused');
});
