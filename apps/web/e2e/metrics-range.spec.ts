import { expect, test, type APIRequestContext } from '@playwright/test';
import { adminToken, signIn, unique } from './support/fixtures';
import { PAGE_LOCALE, region } from './support/metric-figures';

// The Metrics time range and auto-refresh (docs/operators/metrics.md): picked in the UI, kept in the URL, the same after a
// reload, and the panels of the range show what was ingested. The calls happened 40 days ago, beyond every
// window metrics.spec.ts reads (at most 30 days), so its sums stay those of its own batch.
const run = unique('range');
const DAY = 86_400_000;
const when = new Date(Math.floor((Date.now() - 40 * DAY) / 3_600_000) * 3_600_000 + 30 * 60_000);
const names = {
  model: `model-${run}`,
  feature: `digest-${run}`,
  errorType: `timeout_${run}`,
  // Telegram ids as strings, longer than a JSON number keeps exactly.
  chat: `-100${String(Date.now()).slice(-13)}`,
  user: String(9_000_000_000 + (Date.now() % 1_000_000_000)),
};

async function ingestCalls(request: APIRequestContext) {
  const key = await request.post('/api/admin/api-keys', {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: { name: run, scopes: ['ingest:write'] },
  });
  expect(key.status()).toBe(201);
  const call = (minute: number, success: boolean, latency: number) => ({
    type: 'llm_call',
    ts: new Date(when.getTime() + minute * 60_000).toISOString(),
    provider: 'gemini',
    model: names.model,
    input_tokens: 1000,
    output_tokens: 500,
    // Well above what any other spec spends per chat, so this chat and user are at the top.
    cost_usd: 2.5,
    latency_ms: latency,
    cached: false,
    success,
    chat_id: names.chat,
    user_id: names.user,
    feature: names.feature,
    ...(success ? {} : { error_type: names.errorType }),
  });
  const events = [call(0, true, 400), call(1, true, 600), call(2, true, 800), call(3, false, 3000)];
  const response = await request.post('/api/ingest/events', {
    headers: { authorization: `Bearer ${((await key.json()) as { key: string }).key}` },
    data: { events },
  });
  expect(response.ok()).toBeTruthy();
  expect(await response.json()).toMatchObject({ accepted: events.length, rejected: [] });
}

test.use(PAGE_LOCALE);

test.describe.serial('metrics time range', () => {
  test.beforeAll(async ({ request }) => ingestCalls(request));

  test('a range and an auto-refresh interval survive a reload, and the panels show the range', async ({
    page,
  }) => {
    await signIn(page);
    await page.goto('/admin/metrics');
    const range = page.getByLabel('Time range');
    await expect(range).toHaveValue('24h');
    await expect(region(page, 'Top chats').getByText(names.chat)).toHaveCount(0);

    await range.selectOption('90d');
    await expect(page).toHaveURL(/[?&]range=90d/);
    await page.getByLabel('Auto-refresh').selectOption('30s');
    await expect(page).toHaveURL(/[?&]refresh=30s/);
    // The Gemini window keeps its own control beside the range.
    await region(page, 'Gemini Usage').getByRole('radio', { name: '48 h' }).click();
    await expect(page).toHaveURL(/[?&]hours=48/);

    await page.reload();
    await expect(page.getByLabel('Time range')).toHaveValue('90d');
    await expect(page.getByLabel('Auto-refresh')).toHaveValue('30s');
    await expect(region(page, 'Gemini Usage').getByRole('radio', { name: '48 h' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(region(page, 'Latency').getByText(/^Last 90 days · whole hours/)).toBeVisible();

    const latency = page.getByRole('table', { name: 'Latency by model' });
    await expect(latency.getByRole('row', { name: new RegExp(names.model) })).toContainText('4');
    // A chart is drawn once it comes near the window (features/metrics/components/after-paint.tsx).
    await region(page, 'Latency').scrollIntoViewIfNeeded();
    await expect(
      region(page, 'Latency').getByRole('img', { name: /p95 latency per day by model/ }),
    ).toBeVisible();

    const errors = page.getByRole('table', { name: 'Error rate by model' });
    await expect(errors.getByRole('row', { name: new RegExp(names.model) })).toContainText('25%');
    await expect(
      page
        .getByRole('table', { name: 'Errors by type' })
        .getByRole('row', { name: new RegExp(names.errorType) }),
    ).toContainText('1');

    const feature = page.getByRole('table', { name: 'Usage by feature' }).getByRole('row', {
      name: new RegExp(names.feature),
    });
    await expect(feature).toContainText('$10.00');
    await expect(feature).toContainText('4,000');

    const chat = page
      .getByRole('table', { name: 'Top chats' })
      .getByRole('row', { name: new RegExp(names.chat) });
    await expect(chat).toContainText('$10.00');
    await expect(chat.getByRole('cell').nth(1)).toHaveText('4');
    const user = page
      .getByRole('table', { name: 'Top users' })
      .getByRole('row', { name: new RegExp(names.user) });
    await expect(user).toContainText('6,000');
  });

  test('a custom range is checked, applied, kept after a reload, and an id is copied', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page);
    await page.goto('/admin/metrics');
    await page.getByLabel('Time range').selectOption('custom');
    const form = page.getByRole('form', { name: 'Custom range' });
    const local = (time: number) => new Date(time).toISOString().slice(0, 16);
    await form.getByLabel('From').fill(local(when.getTime() + DAY));
    await form.getByLabel('To').fill(local(when.getTime() - DAY));
    await form.getByRole('button', { name: 'Apply' }).click();
    await expect(form.getByText('The start must be before the end')).toBeVisible();
    await expect(page).not.toHaveURL(/range=custom/);

    await form.getByLabel('From').fill(local(when.getTime() - DAY));
    await form.getByLabel('To').fill(local(when.getTime() + DAY));
    await form.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/[?&]range=custom/);
    await expect(page).toHaveURL(/[?&]from=/);

    await page.reload();
    await expect(page.getByLabel('Time range')).toHaveValue('custom');
    await expect(page.getByRole('form', { name: 'Custom range' }).getByLabel('From')).toHaveValue(
      local(when.getTime() - DAY),
    );
    const chats = page.getByRole('table', { name: 'Top chats' });
    const chat = chats.getByRole('row', { name: new RegExp(names.chat) });
    await expect(chat).toContainText('$10.00');
    await expect(
      page
        .getByRole('table', { name: 'Latency by model' })
        .getByRole('row', { name: new RegExp(names.model) }),
    ).toBeVisible();

    const copy = chat.getByRole('button', { name: `Copy chat id ${names.chat}` });
    // From the keyboard; the button is found again as the key is pressed, should the row have been drawn anew
    // since (a refetch of the table).
    await copy.press('Enter');
    await expect(chat.getByRole('status')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(names.chat);
  });
});
