import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { adminToken, signIn, unique } from './support/fixtures';
import { figure as panelFigure, region } from './support/metric-figures';

// One run of the server and database serves the whole suite: the names ingested here are unique, and the
// figures below are the sums of this file's batch (no other spec reports telemetry).
const run = unique('e2e');
const names = {
  proModel: `gemini-${run}-pro`,
  visionModel: `gemini-${run}-vision`,
  otherProvider: `openai-${run}`,
  exchange: `exchange-${run}`,
  news: `news-${run}`,
};

/** A new ingest:write key, made through the API as an admin would. */
async function createIngestKey(request: APIRequestContext, name = unique('e2e-bot')): Promise<string> {
  const response = await request.post('/api/admin/api-keys', {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: { name, scopes: ['ingest:write'] },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

function ingest(request: APIRequestContext, key: string, events: unknown[]) {
  return request.post('/api/ingest/events', {
    headers: { authorization: `Bearer ${key}` },
    data: { events },
  });
}

/** A small known batch: 3 LLM calls, a heartbeat, 2 errors, a cache report, a market report, 6 integration calls. */
function knownBatch() {
  const now = Date.now();
  const at = (msAgo: number) => new Date(now - msAgo).toISOString();
  const llm = (provider: string, model: string, input: number, output: number, cost: number) => ({
    type: 'llm_call',
    ts: at(60_000),
    provider,
    model,
    input_tokens: input,
    output_tokens: output,
    cost_usd: cost,
    latency_ms: 800,
    cached: false,
    success: true,
  });
  const call = (service: string, status: 'success' | 'error') => ({
    type: 'integration_call',
    ts: at(120_000),
    service_name: service,
    status,
    latency_ms: 90,
  });
  return [
    llm('gemini', names.proModel, 1000, 200, 0.012),
    llm('gemini', names.visionModel, 500, 100, 0.006),
    llm(names.otherProvider, 'gpt-4o-mini', 2000, 500, 0.02),
    {
      type: 'heartbeat',
      ts: at(0),
      telegram_status: 'connected',
      started_at: at(5.5 * 3600_000),
      active_locks: [{ name: `lock-${run}`, holder: 'worker-e2e', since: at(60_000) }],
    },
    { type: 'error', ts: at(300_000), source: 'scheduler', message: 'timeout' },
    { type: 'error', ts: at(200_000), source: 'scheduler', message: 'timeout' },
    {
      type: 'cache_stats',
      ts: at(60_000),
      hits: 90,
      misses: 10,
      entries: 42,
      avg_response_time_cached_ms: 20,
      avg_response_time_uncached_ms: 200,
    },
    {
      type: 'market_data',
      ts: at(0),
      last_candle_time: at(60_000),
      websocket_status: 'connected',
      missing_intervals: 3,
    },
    call(names.exchange, 'success'),
    call(names.exchange, 'success'),
    call(names.exchange, 'success'),
    call(names.exchange, 'error'),
    call(names.news, 'success'),
    call(names.news, 'success'),
  ];
}

/** The value beside a label in one of the page's panels. */
const figure = (page: Page, panel: string, label: string) => panelFigure(region(page, panel), label);

test.describe.serial('metrics', () => {
  test.beforeAll(async ({ request }) => {
    const events = knownBatch();
    const response = await ingest(request, await createIngestKey(request), events);
    expect(response.ok()).toBeTruthy();
    expect(await response.json()).toMatchObject({ accepted: events.length, duplicates: 0, rejected: [] });
  });

  test('the Overview shows the ingested figures', async ({ page }) => {
    await signIn(page);
    await expect(page.getByRole('heading', { level: 1, name: 'System Overview' })).toBeVisible();

    const bot = region(page, 'Bot Health');
    await expect(bot.getByText('Operational')).toBeVisible();
    await expect(bot.getByText('Healthy')).toBeVisible();
    await expect(figure(page, 'Bot Health', 'Uptime')).toHaveText('5 hours');
    await expect(figure(page, 'Bot Health', 'Errors (24 h)')).toHaveText('2');
    await expect(bot.getByText(`lock-${run}`)).toBeVisible();

    await expect(region(page, 'Market Data').getByText('Live')).toBeVisible();
    await expect(figure(page, 'Market Data', 'Missing intervals')).toHaveText('3');

    const cache = region(page, 'Cache Performance');
    await expect(cache).toContainText('90% hit rate');
    await expect(figure(page, 'Cache Performance', 'Speed boost')).toHaveText('90%');
    await expect(figure(page, 'Cache Performance', 'Entries')).toHaveText('42');

    const llm = region(page, 'LLM Usage');
    // A chart is drawn once it comes near the window (features/metrics/components/after-paint.tsx).
    await llm.scrollIntoViewIfNeeded();
    await expect(figure(page, 'LLM Usage', 'Tokens')).toHaveText('4,300');
    await expect(figure(page, 'LLM Usage', 'Requests')).toHaveText('3');
    await expect(figure(page, 'LLM Usage', 'Cost')).toHaveText('$0.038');
    await expect(
      llm.getByRole('img', { name: new RegExp(`for gemini, ${names.otherProvider}`) }),
    ).toBeVisible();

    // The exchange answered 3 of 4 calls: the integrations fail, so the system has issues.
    await expect(region(page, 'System Status').getByText('Issues detected')).toBeVisible();
  });

  test('each Metrics tab shows the ingested figures, and the URL keeps the tab and window', async ({
    page,
  }) => {
    await signIn(page);
    await page.goto('/admin/metrics');
    await expect(page.getByRole('tab', { name: 'LLM Usage', selected: true })).toBeVisible();

    await expect(figure(page, 'Gemini Usage', 'Requests')).toHaveText('2');
    await expect(figure(page, 'Gemini Usage', 'Tokens')).toHaveText('1,800');
    const models = page.getByRole('table', { name: 'Gemini models' });
    await expect(models.getByRole('row', { name: new RegExp(`Gemini Pro ${names.proModel}`) })).toContainText(
      '1,200',
    );
    await expect(
      models.getByRole('row', { name: new RegExp(`Gemini Vision ${names.visionModel}`) }),
    ).toContainText('600');
    await region(page, 'Gemini Usage').scrollIntoViewIfNeeded();
    await expect(
      page.getByRole('img', { name: /Gemini tokens per hour over the last 24 hours/ }),
    ).toBeVisible();
    await expect(figure(page, 'LLM Usage', 'Tokens')).toHaveText('4,300');

    const gemini = region(page, 'Gemini Usage');
    await gemini.getByRole('radio', { name: '7 days' }).click();
    await expect(page).toHaveURL(/hours=168/);
    await expect(gemini.getByText('Last 7 days')).toBeVisible();
    await expect(
      page.getByRole('img', { name: /Gemini tokens per hour over the last 7 days/ }),
    ).toBeVisible();
    await page.reload();
    await expect(gemini.getByRole('radio', { name: '7 days' })).toHaveAttribute('aria-checked', 'true');

    const llm = region(page, 'LLM Usage');
    await expect(llm.getByRole('radio', { name: '7 days' })).toHaveAttribute('aria-checked', 'true');
    await llm.getByRole('radio', { name: '30 days' }).click();
    await expect(page).toHaveURL(/days=30/);
    await llm.scrollIntoViewIfNeeded();
    await expect(llm.getByRole('img', { name: /Tokens per day over the last 30 days/ })).toBeVisible();
    await expect(figure(page, 'LLM Usage', 'Tokens')).toHaveText('4,300');

    await page.getByRole('tab', { name: 'Integrations' }).click();
    await expect(page).toHaveURL(/tab=integrations/);
    const services = page.getByRole('table', { name: 'External services' });
    await expect(services.getByRole('row', { name: new RegExp(names.exchange) })).toContainText(
      '75% · Failing',
    );
    await expect(services.getByRole('row', { name: new RegExp(names.news) })).toContainText('100% · Healthy');

    await page.getByRole('tab', { name: 'Token Budgets' }).click();
    await expect(page).toHaveURL(/tab=token-budgets/);
    await expect(region(page, 'Token Budgets')).toBeVisible();
  });

  test('small screens pick the section from a dropdown', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signIn(page);
    await page.goto('/admin/metrics');
    await expect(page.getByRole('tablist')).toBeHidden();
    await page.getByLabel('Section', { exact: true }).selectOption('integrations');
    await expect(page).toHaveURL(/tab=integrations/);
    await expect(page.getByRole('table', { name: 'External services' })).toBeVisible();
  });

  test('a failing endpoint shows its error state', async ({ page }) => {
    await page.route('**/api/metrics/bot-health', (route) =>
      route.fulfill({ status: 404, json: { detail: 'Not Found' } }),
    );
    await page.route('**/api/metrics/market-data', (route) =>
      route.fulfill({ status: 500, json: { detail: 'Boom' } }),
    );
    await page.route('**/api/metrics/integrations', (route) =>
      route.fulfill({ status: 500, json: { detail: 'Boom' } }),
    );
    await page.route('**/api/metrics/gemini-usage?*', (route) =>
      route.fulfill({ status: 404, json: { detail: 'Not Found' } }),
    );
    await signIn(page);

    const bot = region(page, 'Bot Health').getByRole('alert');
    await expect(bot).toContainText('Service not available');
    await expect(bot).toContainText('No data');
    await expect(bot).toContainText('Unable to load metrics');
    const market = region(page, 'Market Data').getByRole('alert');
    await expect(market).toContainText('Failed to load data');
    await expect(market).toContainText('No data available');
    await expect(region(page, 'Cache Performance')).toContainText('90% hit rate');

    await page.goto('/admin/metrics?tab=integrations');
    await expect(region(page, 'Integrations').getByRole('alert')).toContainText('Failed to load data');
    await expect(page.getByRole('table')).toHaveCount(0);

    // The Gemini call is tried twice more, 3 s apart, before the panel gives up: 6 s at least, and as long
    // again for a page load on a busy machine.
    await page.goto('/admin/metrics');
    await expect(region(page, 'Gemini Usage').getByRole('alert')).toContainText(
      'Gemini metrics not available',
      { timeout: 30_000 },
    );
  });

  test("the Overview says 'Error loading dashboard' when nothing loads", async ({ page }) => {
    await page.route(/\/api\/metrics\//, (route) =>
      route.fulfill({ status: 500, json: { detail: 'Database unavailable' } }),
    );
    await signIn(page);
    // Each panel says it failed as its calls give up; once all have, one alert replaces them.
    const alert = page.getByRole('alert').filter({ hasText: 'Error loading dashboard' });
    await expect(alert).toContainText('Database unavailable');
    await expect(page.getByRole('alert')).toHaveCount(1);
  });

  test('budgets and model prices are edited in the UI', async ({ page }) => {
    await signIn(page);
    await page.goto('/admin/metrics?tab=token-budgets');

    await page.getByRole('button', { name: 'Add Budget' }).click();
    const create = page.getByRole('dialog', { name: 'Add Budget' });
    await create.getByLabel('Provider').fill(names.otherProvider);
    await create.getByLabel('Daily token limit').fill('10000');
    await create.getByRole('button', { name: 'Save Budget' }).click();
    await expect(create).toBeHidden();
    const budget = page.getByRole('listitem', { name: `${names.otherProvider} budget` });
    await expect(budget).toContainText('Active');
    await expect(budget).toContainText('25% used');
    await expect(budget).toContainText('Normal');
    await expect(budget).toContainText('2,500 of 10,000');

    await budget.getByRole('button', { name: `Edit ${names.otherProvider} budget` }).click();
    const edit = page.getByRole('dialog', { name: `Edit Budget: ${names.otherProvider}` });
    await edit.getByLabel('Daily token limit').fill('2000');
    await edit.getByRole('button', { name: 'Save Budget' }).click();
    await expect(edit).toBeHidden();
    await expect(budget).toContainText('125% used');
    await expect(budget).toContainText('Limit reached');
    await expect(budget.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

    await budget.getByRole('button', { name: `Delete ${names.otherProvider} budget` }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete Budget' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(budget).toBeHidden();

    const model = `price-${run}`;
    await page.getByRole('button', { name: 'Add Price' }).click();
    const price = page.getByRole('dialog', { name: 'Add Model Price' });
    await price.getByLabel('Model').fill(model);
    await price.getByLabel('Input price (USD per million tokens)').fill('1.25');
    await price.getByLabel('Output price (USD per million tokens)').fill('5');
    await price.getByRole('button', { name: 'Save Price' }).click();
    await expect(price).toBeHidden();
    const row = page.getByRole('row', { name: new RegExp(model) });
    await expect(row).toContainText('$1.25');

    await row.getByRole('button', { name: `Edit price of ${model}` }).click();
    const change = page.getByRole('dialog', { name: `Edit Price: ${model}` });
    await change.getByLabel('Output price (USD per million tokens)').fill('7.5');
    await change.getByRole('button', { name: 'Save Price' }).click();
    await expect(change).toBeHidden();
    await expect(row).toContainText('$7.50');
    await expect(row).toContainText('Your price');

    // Removing a price no call uses takes its row away.
    await row.getByRole('button', { name: `Remove price of ${model}` }).click();
    await page
      .getByRole('alertdialog', { name: 'Remove Price' })
      .getByRole('button', { name: 'Remove Price' })
      .click();
    await expect(row).toBeHidden();
  });

  test('an API key is created in the UI, shown once, and revoked', async ({ page, context, request }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = unique('ui-bot');
    await signIn(page);
    await page.goto('/admin/admin');
    await page.getByRole('tab', { name: 'API keys' }).click();
    await expect(page).toHaveURL(/[?&]tab=api-keys/);

    await page.getByRole('button', { name: 'Create API Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API Key' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('checkbox', { name: 'ingest:write' }).check();
    await dialog.getByRole('button', { name: 'Create Key' }).click();

    const created = page.getByRole('dialog', { name: 'API Key Created' });
    const keyInput = created.getByLabel(`API key for ${name}`);
    await expect(keyInput).toHaveValue(/^lumi_/);
    const key = await keyInput.inputValue();
    await created.getByRole('button', { name: 'Copy' }).click();
    await expect(created.getByText('The key is on the clipboard.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await created.getByRole('button', { name: 'Done' }).click();
    await expect(created).toBeHidden();

    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText(`${key.slice(0, 12)}…`);
    await expect(row).toContainText('ingest:write');
    await expect(row).toContainText('Active');
    await expect(page.locator(`input[value="${key}"]`)).toHaveCount(0);
    expect((await ingest(request, key, [])).ok()).toBeTruthy();

    await row.getByRole('button', { name: `Revoke ${name}` }).click();
    await page
      .getByRole('alertdialog', { name: 'Revoke API Key' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await expect(row).toContainText('Revoked');
    expect((await ingest(request, key, [])).status()).toBe(401);
  });
});
