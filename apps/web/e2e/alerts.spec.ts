import { ALERT_WEBHOOK_HEADERS, type AlertWebhookBody } from '@lumi/contract';
import { checkTelegramText } from '@lumi/telegram-markup';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { sendMessagesTo as sentTo, type BotApiRequest } from './support/bot-api';
import { adminToken, signIn, unique } from './support/fixtures';
import { signatureValid, WebhookReceiver } from '@lumi/test-support/webhook-receiver';

// The alert proof (docs/bot-developers/alerts.md): a rule "no heartbeat for 60 s" made in the console fires when the bot's heartbeats
// stop and resolves when one arrives, telling a Telegram chat (the fake Bot API, as valid HTML) and a
// webhook (signed with the secret the console showed once). The e2e server evaluates every second
// (ALERT_EVALUATION_SECONDS=1 in start-server.mjs).

/** An ingest key, a channel for the Telegram contact point, and a way to report heartbeats. */
async function arrange(request: APIRequestContext, chatId: string) {
  const headers = { authorization: `Bearer ${await adminToken(request)}` };
  const post = async <T>(url: string, data: unknown): Promise<T> => {
    const response = await request.post(url, { headers, data });
    expect(response.ok(), `${url}: ${await response.text()}`).toBeTruthy();
    return (await response.json()) as T;
  };
  const { key } = await post<{ key: string }>('/api/admin/api-keys', {
    name: unique('e2e-alerts-'),
    scopes: ['ingest:write'],
  });
  const channelName = unique('E2E Alerts ');
  await post('/api/v1/messaging/channels', { channel_name: channelName, chat_id: chatId });
  const heartbeat = async (msAgo: number) => {
    const ts = new Date(Date.now() - msAgo).toISOString();
    const response = await request.post('/api/ingest/events', {
      headers: { authorization: `Bearer ${key}` },
      data: {
        events: [{ type: 'heartbeat', ts, telegram_status: 'connected', started_at: ts, active_locks: [] }],
      },
    });
    expect(response.ok(), await response.text()).toBeTruthy();
  };
  return { channelName, heartbeat };
}

async function createTelegramContactPoint(page: Page, name: string, channelName: string) {
  await page.getByRole('button', { name: 'New Contact Point' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Contact Point' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Channel').selectOption({ label: channelName });
  await expect(dialog.getByLabel('Template')).toHaveValue('');
  await dialog.getByRole('button', { name: 'Create Contact Point' }).click();
  await expect(dialog).toBeHidden();
}

/** Creates a webhook contact point and returns the signing secret the console shows once. */
async function createWebhookContactPoint(page: Page, name: string, url: string): Promise<string> {
  await page.getByRole('button', { name: 'New Contact Point' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Contact Point' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Type').selectOption({ label: 'Webhook' });
  await dialog.getByLabel('URL').fill(url);
  await dialog.getByRole('button', { name: 'Create Contact Point' }).click();
  const shown = page.getByRole('dialog', { name: `Signing secret of ${name}` });
  await expect(shown).toContainText('you will not see it again');
  const secret = (await shown.getByLabel('Signing secret').textContent())?.trim() ?? '';
  expect(secret.length).toBeGreaterThanOrEqual(32);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  return secret;
}

/** The webhook's posts so far, each checked against its signature and parsed. */
function verifiedBodies(receiver: WebhookReceiver, path: string, secret: string): AlertWebhookBody[] {
  return receiver.receivedAt(path).map((hook) => {
    expect(signatureValid(hook, secret, ALERT_WEBHOOK_HEADERS)).toBe(true);
    expect(hook.headers['content-type']).toContain('application/json');
    return JSON.parse(hook.body) as AlertWebhookBody;
  });
}

/** A Telegram message Telegram would accept as HTML, with the rule's name escaped in it. */
function expectValidHtml(call: BotApiRequest, ruleName: string) {
  expect(call.body.parse_mode).toBe('HTML');
  const text = String(call.body.text);
  const check = checkTelegramText(text, 'HTML');
  expect(check.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
  expect(check.plainText).toContain(ruleName);
  expect(text).not.toContain(ruleName);
}

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await WebhookReceiver.start({ status: 204 });
});
test.afterAll(async () => {
  await receiver.close();
});

test('a heartbeat rule made in the console fires and resolves on Telegram and on a webhook', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const chatId = `@${unique('lumi_alert_')}`.slice(0, 32);
  const { channelName, heartbeat } = await arrange(request, chatId);
  // The last heartbeat is two minutes old: "no heartbeat for 60 s" holds at once.
  await heartbeat(120_000);

  // A name with characters HTML escapes, so the message proves the escaping.
  const ruleName = unique('E2E <Heartbeat> & co ');
  const telegramName = unique('E2E Ops chat ');
  const webhookName = unique('E2E Pager ');
  const hookPath = `/${unique('hook-')}`;

  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
  await expect(page).toHaveURL(/\/admin\/alerts$/);
  await page.getByRole('tab', { name: 'Contact points' }).click();
  await expect(page).toHaveURL(/\?view=contact-points$/);
  await createTelegramContactPoint(page, telegramName, channelName);
  const secret = await createWebhookContactPoint(page, webhookName, receiver.urlFor(hookPath));
  const points = page.getByRole('table', { name: 'Contact points' });
  await expect(points.getByRole('row', { name: new RegExp(webhookName) })).toContainText(
    receiver.urlFor(hookPath),
  );

  // The rule, with the live line saying it would fire now.
  await page.getByRole('tab', { name: 'Rules' }).click();
  await page.getByRole('button', { name: 'New Rule' }).first().click();
  const editor = page.getByRole('dialog', { name: 'New Rule' });
  await editor.getByLabel('Name').fill(ruleName);
  await expect(editor.getByLabel('Condition')).toHaveValue('heartbeat_missing');
  await editor.getByLabel('No heartbeat for').fill('60');
  const now = editor.getByRole('region', { name: 'Evaluates now' });
  await expect(now).toContainText('Would fire');
  await editor.getByLabel('Severity').selectOption({ label: 'Critical' });
  await editor.getByRole('checkbox', { name: telegramName }).click();
  await editor.getByRole('checkbox', { name: webhookName }).click();
  await editor.getByRole('button', { name: 'Create Rule' }).click();
  await expect(page.getByRole('region', { name: /Notifications/ })).toContainText(
    `Rule '${ruleName}' created`,
  );

  // It fires at the next evaluation.
  const active = page.getByRole('list', { name: 'Firing and pending alerts' });
  await expect(active.getByRole('listitem').filter({ hasText: ruleName })).toContainText('Firing', {
    timeout: 15_000,
  });
  const row = page
    .getByRole('table', { name: 'Alert rules' })
    .getByRole('row', { name: new RegExp(ruleName) });
  await expect(row).toContainText('No heartbeat for 60 s');
  await expect(row).toContainText('Critical');

  // Telegram gets it as valid HTML, the webhook as a signed body.
  await expect.poll(async () => (await sentTo(request, chatId)).length, { timeout: 30_000 }).toBe(1);
  expectValidHtml((await sentTo(request, chatId))[0]!, ruleName);
  await expect.poll(() => receiver.receivedAt(hookPath).length, { timeout: 30_000 }).toBe(1);
  const [fired] = verifiedBodies(receiver, hookPath, secret);
  expect(fired).toMatchObject({
    version: 1,
    kind: 'firing',
    state: 'firing',
    previous_state: 'ok',
    threshold: 60,
  });
  expect(fired!.rule).toMatchObject({ name: ruleName, severity: 'critical' });
  expect(fired!.value).toBeGreaterThanOrEqual(60);
  expect(fired!.url).toMatch(/\/admin\/alerts\?rule=\d+$/);

  // The Overview says so.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
  const banner = page.getByRole('region', { name: /alerts? firing/ });
  await expect(banner).toContainText(ruleName);
  await banner.getByRole('link', { name: ruleName }).click();
  // The alert's page: what fired and since when first, the editor a click away.
  const focus = page.getByRole('region', { name: ruleName });
  await expect(focus).toContainText('Firing since');
  await expect(focus.getByRole('link', { name: 'Open the Overview' })).toBeVisible();
  await focus.getByRole('button', { name: 'Edit Rule' }).click();
  await expect(page.getByRole('dialog', { name: `Edit Rule: ${ruleName}` })).toBeVisible();
  await page
    .getByRole('dialog', { name: `Edit Rule: ${ruleName}` })
    .getByRole('button', { name: 'Cancel' })
    .click();

  // A heartbeat now: the rule resolves, and both are told.
  await heartbeat(0);
  await expect(row).toContainText('OK', { timeout: 15_000 });
  await expect(row).not.toContainText('Firing');
  await expect.poll(async () => (await sentTo(request, chatId)).length, { timeout: 30_000 }).toBe(2);
  expectValidHtml((await sentTo(request, chatId))[1]!, ruleName);
  await expect.poll(() => receiver.receivedAt(hookPath).length, { timeout: 30_000 }).toBe(2);
  const resolved = verifiedBodies(receiver, hookPath, secret)[1]!;
  expect(resolved).toMatchObject({ kind: 'resolved', state: 'ok', previous_state: 'firing' });

  // The history keeps both changes; its filters sit in the URL.
  await page.getByRole('tab', { name: 'History' }).click();
  await page.getByLabel('New state').selectOption({ label: 'Firing' });
  await expect(page).toHaveURL(/view=history&state=firing/);
  const changes = page.getByRole('table', { name: 'State changes' });
  await expect(changes.getByRole('row', { name: new RegExp(ruleName) })).toHaveCount(1);
  await page.getByLabel('New state').selectOption({ label: 'OK' });
  await expect(changes.getByRole('row', { name: new RegExp(ruleName) })).toHaveCount(1);

  // Deleted, so it tells nobody while the later specs report heartbeats of their own.
  await page.getByRole('tab', { name: 'Rules' }).click();
  await row.getByRole('button', { name: `Delete ${ruleName}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Rule' }).click();
  await expect(row).toBeHidden();
});

test('Send test notification reports what became of it, and the contact point lists it', async ({ page }) => {
  const name = unique('E2E Test hook ');
  const hookPath = `/${unique('test-hook-')}`;
  await signIn(page);
  await page.goto('/admin/alerts?view=contact-points');
  const secret = await createWebhookContactPoint(page, name, receiver.urlFor(hookPath));

  await page.getByRole('button', { name: `Send test notification to ${name}` }).click();
  await expect(page.getByRole('region', { name: /Notifications/ })).toContainText(
    `Test notification sent to '${name}'`,
  );
  const [body] = verifiedBodies(receiver, hookPath, secret);
  expect(body).toMatchObject({ kind: 'test', rule: null });

  await page.getByRole('button', { name: `Notifications of ${name}` }).click();
  const list = page.getByRole('table', { name: `Notifications of ${name}` });
  await expect(list.getByRole('row').nth(1)).toContainText('Sent');
  await expect(list.getByRole('row').nth(1)).toContainText('204');
});
