import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GeminiUsage, IntegrationMetrics, LlmUsage } from '@lumi/contract';
import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type PlaywrightWorkerArgs,
} from '@playwright/test';
import { DEMO_SCRIPT, freePort, runScript, SERVER_SCRIPT, type ChildRun } from './support/child-process';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from './support/constants';
import { adminToken, signIn } from './support/fixtures';
import {
  budgetWord,
  count,
  figure,
  geminiLabel,
  LAST_STATUS,
  newestEvent,
  PAGE_LOCALE,
  percent,
  rateWord,
  readFigures,
  region,
  usd,
  when,
  type Figures,
} from './support/metric-figures';

/*
 * The demo (docs/demo.md): run its simulated bot briefly, then check that the Overview and each Metrics
 * tab show what it reported. The demo gets a server and database of its own, so the shared server keeps
 * only metrics.spec.ts's known batch. Every expected figure is read from the same server's API just before
 * the page is, and compared in the panels' own formats.
 */

/** The simulated bot's time slot: it reports each 5-second slot once the slot is over. */
const SLOT_MS = 5000;
/** How many slots past its start-up the bot must have reported before it is stopped. */
const LIVE_SLOTS = 2;

let dataDir: string | undefined;
let baseURL = '';
let demo: ChildRun | undefined;
let server: ChildRun | undefined;
let api: APIRequestContext | undefined;
let token = '';
let context: BrowserContext | undefined;

async function expectLlmUsage(panel: Locator, llm: LlmUsage) {
  expect(llm.totals.requests).toBeGreaterThan(0);
  await expect(figure(panel, 'Tokens')).toHaveText(count(llm.totals.tokens));
  await expect(figure(panel, 'Cost')).toHaveText(usd(llm.totals.cost));
  await expect(figure(panel, 'Requests')).toHaveText(count(llm.totals.requests));
  const providers = [...new Set(llm.daily_usage.map((day) => day.provider))];
  // A chart is drawn once it comes near the window (features/metrics/components/after-paint.tsx).
  await panel.scrollIntoViewIfNeeded();
  await expect(
    panel.getByRole('img', {
      name: `for ${providers.join(', ')}; ${count(llm.totals.tokens)} tokens in total`,
    }),
  ).toBeVisible();
}

async function expectOverview(page: Page, { bot, market, cache, llm }: Figures) {
  // The simulator's heartbeat arrived and its cache and market reports too.
  expect(bot.telegram_status).toBe('connected');
  expect(cache.total_hits).toBeGreaterThan(0);
  expect(market.last_candle_time).not.toBeNull();

  const health = region(page, 'Bot Health');
  const hours = Math.floor(bot.uptime_seconds / 3600);
  await expect(figure(health, 'Telegram')).toHaveText('connected');
  await expect(figure(health, 'Uptime')).toHaveText(`${count(hours)} ${hours === 1 ? 'hour' : 'hours'}`);
  await expect(figure(health, 'Errors (24 h)')).toHaveText(count(bot.error_count_24h));
  await expect(figure(health, 'Active locks')).toHaveText(count(bot.active_locks.length));
  const locks = health.getByRole('list', { name: 'Active locks' }).getByRole('listitem');
  await expect(locks).toHaveText(bot.active_locks.map((lock) => new RegExp(`^${lock.name}`)));
  // Healthy means connected with fewer than 10 errors in 24 hours (spec section 9).
  if (bot.error_count_24h < 10) {
    await expect(health.getByText('Operational', { exact: true })).toBeVisible();
    await expect(health.getByText('Healthy', { exact: true })).toBeVisible();
  } else {
    await expect(health).toContainText(`${count(bot.error_count_24h)} errors in the last 24 hours`);
  }

  const feed = region(page, 'Market Data');
  const live = market.data_freshness === 'current' && market.websocket_status === 'connected';
  await expect(feed).toContainText(live ? 'Live' : market.data_freshness);
  await expect(figure(feed, 'WebSocket')).toHaveText(market.websocket_status);
  await expect(figure(feed, 'Last candle')).toHaveText(when(market.last_candle_time!));
  await expect(figure(feed, 'Missing intervals')).toHaveText(count(market.missing_intervals));

  const caching = region(page, 'Cache Performance');
  const { avg_response_time_cached: cached, avg_response_time_uncached: uncached } = cache;
  await expect(caching).toContainText(`${percent(cache.hit_rate * 100)} hit rate`);
  await expect(figure(caching, 'Total hits')).toHaveText(count(cache.total_hits));
  await expect(figure(caching, 'Entries')).toHaveText(count(cache.cache_entries));
  await expect(figure(caching, 'Avg. cached')).toHaveText(`${count(cached)} ms`);
  await expect(figure(caching, 'Avg. uncached')).toHaveText(`${count(uncached)} ms`);
  await expect(figure(caching, 'Speed boost')).toHaveText(
    uncached > 0 ? percent(((uncached - cached) / uncached) * 100) : 'Not measured',
  );

  await expectLlmUsage(region(page, 'LLM Usage'), llm);
}

async function expectGeminiUsage(page: Page, { summary, last_updated }: GeminiUsage) {
  expect(summary.total_requests).toBeGreaterThan(0);
  const panel = region(page, 'Gemini Usage');
  await expect(figure(panel, 'Requests')).toHaveText(count(summary.total_requests));
  await expect(figure(panel, 'Tokens')).toHaveText(count(summary.total_tokens));
  await expect(figure(panel, 'Cost')).toHaveText(usd(summary.total_cost));
  await expect(figure(panel, 'Last call')).toHaveText(when(last_updated!));
  const models = panel.getByRole('table', { name: 'Gemini models' });
  for (const [model, usage] of Object.entries(summary.models)) {
    const row = models.getByRole('row', { name: `${geminiLabel(model)} ${model}` });
    await expect(row.getByRole('cell')).toHaveText([
      new RegExp(`${geminiLabel(model)}${model}`),
      count(usage.requests),
      count(usage.estimated_tokens),
      percent((usage.estimated_tokens / summary.total_tokens) * 100),
      usd(usage.estimated_cost),
    ]);
  }
}

async function expectBudgets(page: Page, { budgets, prices }: Figures) {
  // The demo sets up these budgets and the Gemini prices through the API (scripts/demo/simulated-bot.mjs).
  expect(budgets.map((budget) => budget.provider)).toEqual(expect.arrayContaining(['gemini', 'openai']));
  expect(prices.length).toBeGreaterThan(0);
  const limit = (used: string, max: number | null, format: (value: number) => string) =>
    max === null ? `${used} (no limit)` : `${used} of ${format(max)}`;
  for (const budget of budgets) {
    const { tokens_used, cost_incurred, usage_percentage } = budget.current_usage;
    const item = page.getByRole('listitem', { name: `${budget.provider} budget` });
    await expect(item.getByRole('progressbar')).toHaveAttribute(
      'aria-valuetext',
      `${percent(usage_percentage)} used, ${budgetWord(usage_percentage)}`,
    );
    await expect(item).toContainText(budget.is_active ? 'Active' : 'Inactive');
    await expect(figure(item, 'Tokens today')).toHaveText(
      limit(count(tokens_used), budget.daily_token_limit, count),
    );
    await expect(figure(item, 'Cost today')).toHaveText(
      limit(usd(cost_incurred), budget.daily_cost_limit, usd),
    );
  }
  const table = page.getByRole('table', { name: 'Model prices' });
  for (const price of prices) {
    const row = table.getByRole('row', { name: price.model });
    await expect(row).toContainText(usd(price.input_usd_per_million));
    await expect(row).toContainText(usd(price.output_usd_per_million));
  }
}

async function expectIntegrations(page: Page, { data }: IntegrationMetrics) {
  // The services the simulated bot calls.
  expect(data.map((service) => service.service_name)).toEqual(
    expect.arrayContaining(['birdeye', 'coingecko', 'dexscreener', 'telegram']),
  );
  const table = page.getByRole('table', { name: 'External services' });
  await expect(table.getByRole('row')).toHaveCount(data.length + 1);
  for (const service of data) {
    const row = table.getByRole('row', { name: service.service_name });
    await expect(row.getByRole('cell')).toHaveText([
      service.service_name,
      `${percent(service.success_rate)} · ${rateWord(service.success_rate)}`,
      LAST_STATUS[service.last_status],
      count(service.total_calls),
      count(service.error_count),
      when(service.last_api_call),
    ]);
  }
}

/** A signed-in page on the demo's server, in the locale and time zone the expected formats use. */
async function openConsole(browser: Browser): Promise<Page> {
  context = await browser.newContext({ baseURL, ...PAGE_LOCALE });
  const page = await context.newPage();
  await signIn(page);
  return page;
}

test.describe.serial('the simulated bot', () => {
  test.beforeAll(async ({ playwright }) => {
    // Room for every wait of startDemo on a busy machine (45 + 50 s, 15 s to stop, 30 s for the server),
    // so a wait that fails does so there, and the failure shows what the demo and the server wrote.
    test.setTimeout(180_000);
    await startDemo(playwright).catch((error: unknown) => {
      console.error(`The demo wrote:\n${demo?.output().slice(-4000)}`);
      console.error(`The server wrote:\n${server?.output().slice(-4000) ?? ''}`);
      throw error;
    });
  });

  async function startDemo(playwright: PlaywrightWorkerArgs['playwright']) {
    dataDir = mkdtempSync(path.join(tmpdir(), 'lumi-e2e-demo-'));
    const port = await freePort();
    baseURL = `http://127.0.0.1:${port}`;
    const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
    // One hour of history instead of seven days: it back-fills in a second or two, and every event stays
    // inside the panels' 24-hour windows while the test runs, whenever the hour turns.
    demo = await runScript(DEMO_SCRIPT, {
      ...env,
      LUMI_ADMIN_USERNAME: ADMIN_USERNAME,
      LUMI_ADMIN_PASSWORD: ADMIN_PASSWORD,
      DEMO_HISTORY_HOURS: '1',
    });
    await expect
      .poll(demo.output, { message: 'the demo back-fills and goes live', timeout: 45_000 })
      .toContain('Lumi Admin demo is running.');
    const liveFrom = Date.now();

    const request = await playwright.request.newContext({ baseURL });
    api = request;
    token = await adminToken(request);
    await expect
      .poll(async () => newestEvent(await readFigures(request, token)), {
        message: `the bot reports live events for ${LIVE_SLOTS} slots`,
        timeout: 50_000,
      })
      .toBeGreaterThanOrEqual(liveFrom + LIVE_SLOTS * SLOT_MS);

    // SIGTERM stops the bot and its server as Ctrl+C would; the built server then serves the demo's data
    // alone, so the figures hold still while the browser reads them, and the bot's last heartbeat (sent
    // every 30 s) must not go stale meanwhile.
    expect(await demo.stop()).toBe(0);
    server = await runScript(
      SERVER_SCRIPT,
      { ...env, LOG_LEVEL: 'warn', HEARTBEAT_STALE_SECONDS: '600' },
      { healthUrl: `${baseURL}/api/ready`, timeoutMs: 30_000 },
    );
  }

  test.afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  test.afterAll(async () => {
    await server?.stop();
    await demo?.stop();
    await api?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  // Each check reads the API, then the page; it starts over should a window turn (an hour of uptime,
  // midnight for the budgets) between the two reads.
  test('the Overview shows what the bot reported', async ({ browser }) => {
    const page = await openConsole(browser);
    await expect(async () => {
      const figures = await readFigures(api!, token);
      await page.goto('/admin/overview');
      await expect(page.getByRole('heading', { level: 1, name: 'System Overview' })).toBeVisible();
      await expectOverview(page, figures);
    }).toPass({ timeout: 40_000 });
  });

  test('each Metrics tab shows what the bot reported', async ({ browser }) => {
    const page = await openConsole(browser);
    await expect(async () => {
      const figures = await readFigures(api!, token);
      await page.goto('/admin/metrics');
      await expect(page.getByRole('tab', { name: 'LLM Usage', selected: true })).toBeVisible();
      await expectGeminiUsage(page, figures.gemini);
      await expectLlmUsage(region(page, 'LLM Usage'), figures.llm);

      await page.getByRole('tab', { name: 'Token Budgets' }).click();
      await expectBudgets(page, figures);

      await page.getByRole('tab', { name: 'Integrations' }).click();
      await expectIntegrations(page, figures.integrations);
    }).toPass({ timeout: 40_000 });
  });

  // The limits and access rules of scripts/demo/seed-limits.mjs, entered through the API once live.
  test('Limits shows the limits and access rules the demo set up', async ({ browser }) => {
    const page = await openConsole(browser);
    await page.goto('/admin/limits');
    const rows = page.getByRole('row');
    await expect(rows.filter({ hasText: 'Each chat' })).toContainText('$1.50 per day');
    await expect(rows.filter({ hasText: 'Each user' })).toContainText('5 requests per minute');
    await expect(rows.filter({ hasText: 'Feature digest' })).toContainText('3,000,000 tokens per day');
    await page.getByRole('tab', { name: 'Bans and allowlist' }).click();
    await expect(rows.filter({ hasText: 'Prompt-injection spam sent to the summarizer' })).toContainText(
      'Ban',
    );
    await expect(rows.filter({ hasText: "The team's test group: load tests run here" })).toBeVisible();
  });
});
