import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { sendMessagesTo } from './support/bot-api';
import { adminToken, signIn, unique } from './support/fixtures';

/** Arranges data through the public API, as a bot or an operator script would. */
async function messagingApi(request: APIRequestContext) {
  const headers = { authorization: `Bearer ${await adminToken(request)}` };
  return async <T>(path: string, data: unknown): Promise<T> => {
    const response = await request.post(`/api/v1/messaging${path}`, { headers, data });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as T;
  };
}

async function typeInEditor(page: Page, text: string) {
  await page.locator('.monaco-editor').first().click();
  await page.keyboard.press('Control+End');
  // insertText bypasses Monaco's auto-closing of brackets and quotes, so the text arrives as written.
  await page.keyboard.insertText(text);
}

test('creates a channel, a topic and a template, previews it, sends a test and restores a version', async ({
  page,
  request,
}) => {
  // A long flow through the template editor (Monaco), as config.spec.ts's: a busy machine needs more than 60 s.
  test.setTimeout(150_000);
  const channelName = unique('E2E Alerts ');
  const templateName = unique('E2E Price Alert ');
  const chatId = `@${unique('lumi_e2e_')}`.slice(0, 32);
  await signIn(page);
  await page.goto('/admin/messages');
  await expect(page.getByRole('heading', { name: 'Message Templates' })).toBeVisible();

  // Channel and topic, through the Manage Channels dialog.
  await page.getByRole('button', { name: 'Manage Channels' }).click();
  const dialog = page.getByRole('dialog', { name: 'Manage Channels' });
  await dialog.getByRole('button', { name: 'Add Channel' }).click();
  await dialog.getByRole('textbox', { name: 'Channel Name' }).fill(channelName);
  await dialog.getByRole('textbox', { name: 'Chat ID' }).fill(chatId);
  await dialog.getByRole('button', { name: 'Save Channel' }).click();
  await dialog.getByRole('button', { name: `Topics of ${channelName}` }).click();
  await dialog.getByRole('button', { name: 'Add Topic' }).click();
  await dialog.getByRole('textbox', { name: 'Topic Name' }).fill('Whales');
  await dialog.getByRole('spinbutton', { name: 'Message Thread ID' }).fill('42');
  await dialog.getByRole('button', { name: 'Save Topic' }).click();
  await expect(dialog.getByRole('button', { name: 'Edit Whales' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  // A new template written in the editor, with a variable inserted from the Variables panel.
  await page.getByRole('button', { name: 'Create New Template' }).click();
  await expect(page.getByRole('heading', { name: 'Create New Template' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Template Name' }).fill(templateName);
  await page.getByRole('combobox', { name: 'Message Type' }).selectOption('alert');
  await page.getByRole('combobox', { name: 'Channel', exact: true }).selectOption({ label: channelName });
  await page.getByLabel('Topic (Optional)').selectOption({ label: 'Whales' });
  await typeInEditor(page, '<b>Alert</b> for ');
  await page.getByRole('button', { name: 'Insert {{token_name}}' }).click();

  // The preview renders the unsaved content with edited sample data.
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const sample = page.getByLabel('Sample data (JSON)');
  await sample.fill('{"token_name": "E2E Coin"}');
  const rendered = page.getByRole('figure', { name: 'Rendered message' });
  await expect(rendered).toContainText('Alert for E2E Coin');
  await expect(rendered.locator('strong')).toHaveText('Alert');
  await sample.fill('{"token_name": ');
  await expect(page.getByText(/^Not valid JSON: .*the preview shows the last valid data\.$/)).toBeVisible();
  await expect(rendered).toContainText('Alert for E2E Coin');

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Create New Template' })).toBeHidden();
  await expect(page.getByRole('region', { name: /Notifications/ })).toContainText(
    `Template '${templateName}' created`,
  );
  const item = page.getByRole('button', { name: new RegExp(templateName) });
  await expect(item).toContainText('v1');

  // A second version.
  await item.click();
  await expect(page.getByRole('heading', { name: `Edit Template: ${templateName}` })).toBeVisible();
  await typeInEditor(page, '!');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(item).toContainText('v2');

  // A test send reaches the (fake) Bot API in the template's channel and topic.
  await item.click();
  await expect(page.getByText('Version 2', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  await sample.fill('{"token_name": "Bonk"}');
  await page.getByRole('button', { name: 'Send Test Message' }).click();
  const success = page.getByText(/^Test message sent successfully! Message ID: \d+$/);
  await expect(success).toBeVisible();
  const messageId = (await success.textContent())!.split(': ')[1];
  const sent = await sendMessagesTo(request, chatId);
  expect(sent).toHaveLength(1);
  expect(sent[0]!.body).toMatchObject({
    message_thread_id: 42,
    parse_mode: 'HTML',
    text: '<b>Alert</b> for Bonk!',
  });
  await expect(page.getByRole('list', { name: 'Test history' })).toContainText(`Message ID: ${messageId}`);

  // Version 1 back, as version 3.
  await page.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('dialog', { name: 'Version History' });
  await expect(history.getByText('Version 1 compared with the current version 2')).toBeVisible();
  await expect(history.getByRole('region', { name: 'Content changes' }).locator('ins')).toContainText(
    '<b>Alert</b> for {{token_name}}!',
  );
  await history.getByRole('button', { name: 'Restore version 1' }).click();
  await page
    .getByRole('alertdialog', { name: 'Restore version 1?' })
    .getByRole('button', { name: 'Restore' })
    .click();
  await expect(history).toBeHidden();
  await expect(page.getByText('Version 3', { exact: true })).toBeVisible();
  await expect(item).toContainText('v3');
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  // The restored content has no '!'; Preview uses the sample data the test was sent with.
  await expect(page.getByLabel('Sample data (JSON)')).toHaveCount(1);
  await expect(rendered).toContainText('Alert for Bonk');
  await expect(rendered).not.toContainText('Bonk!');

  // Deleted after a confirmation: gone from the list, and its name is free for a new template.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page
    .getByRole('alertdialog', { name: `Delete template '${templateName}'?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByRole('region', { name: /Notifications/ })).toContainText(
    `Template '${templateName}' deleted`,
  );
  await expect(item).toBeHidden();
  await expect(page.getByRole('heading', { name: `Edit Template: ${templateName}` })).toBeHidden();
});

test('filters the template list by channel and type and searches it by name', async ({ page, request }) => {
  const post = await messagingApi(request);
  const prefix = unique('Filter');
  const alerts = await post<{ id: number }>('/channels', {
    channel_name: `${prefix} A`,
    chat_id: `@${unique('filter_a_')}`,
  });
  const digests = await post<{ id: number }>('/channels', {
    channel_name: `${prefix} B`,
    chat_id: `@${unique('filter_b_')}`,
  });
  const create = (name: string, channelId: number, type: string, enabled = true) =>
    post('/templates', {
      template_name: `${prefix} ${name}`,
      channel_id: channelId,
      message_type: type,
      template_content: 'Hi {{token_name}}',
      enabled,
    });
  await create('Price alert', alerts.id, 'alert');
  await create('Morning digest', digests.id, 'digest', false);
  await create('Whale alert', digests.id, 'alert');

  await signIn(page);
  await page.goto('/admin/messages');
  const list = page.getByRole('list', { name: 'Templates' });
  await page.getByPlaceholder('Search templates...').fill(prefix.toUpperCase());
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(list.getByRole('button', { name: /Morning digest/ })).toContainText('Disabled');

  await page.getByLabel('Filter by channel').selectOption({ label: `${prefix} B` });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await page.getByLabel('Filter by type').selectOption('alert');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText(`${prefix} Whale alert`);

  await page.getByLabel('Filter by channel').selectOption({ label: 'All Channels' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await page.getByPlaceholder('Search templates...').fill(`${prefix} whale`);
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await page.getByPlaceholder('Search templates...').fill(`${prefix} nothing`);
  await expect(page.getByText('No templates found')).toBeVisible();
});
