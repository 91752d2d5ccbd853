import { expect, test, type Page } from '@playwright/test';
import { adminToken, signIn, unique } from './support/fixtures';

/*
 * The first signed-in load (docs/benchmarks.md): a full load of a signed-in screen restores the session with one
 * refresh and no refused call, gets the screen's chunks preloaded, and breaks no Content-Security-Policy
 * rule (Chromium's issues panel listed one on every signed-in page).
 */

const SCREENS = [
  ['overview', 'System Overview'],
  ['metrics', 'Metrics & Analytics'],
  ['config', 'Configuration Management'],
  ['messages', 'Message Templates'],
  ['users', 'Users'],
  ['profile', 'Profile Settings'],
] as const;

/** Collects the page's Content-Security-Policy violations as the browser reports them. */
async function recordViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      report(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return violations;
}

test('signed-in screens load without breaking the Content-Security-Policy', async ({ page }) => {
  const violations = await recordViolations(page);
  await signIn(page);
  for (const [path, heading] of SCREENS) {
    await page.goto(`/admin/${path}`);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect(violations).toEqual([]);
});

test("a reload restores the session with one refresh, and the screen's code is preloaded", async ({
  page,
}) => {
  await signIn(page);
  const refreshes: string[] = [];
  const refused: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/auth/refresh')) refreshes.push(request.url());
  });
  page.on('response', (response) => {
    if (response.url().includes('/api/') && response.status() === 401) refused.push(response.url());
  });

  const document = await page.goto('/admin/users');
  expect(await document?.text()).toMatch(
    /<link rel="modulepreload"[^>]* href="\/admin\/assets\/users-route-/,
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page.getByRole('cell', { name: /Administrator/ })).toBeVisible();
  await page.waitForLoadState('networkidle');

  expect(refreshes).toHaveLength(1);
  expect(refused).toEqual([]);
});

test("on a phone the Overview's chart code loads only as the chart comes near", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  // A week with usage, whatever the other specs reported, so the panel has a chart to draw.
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  await page.route('**/api/metrics/llm-usage?*', (route) =>
    route.fulfill({
      json: {
        daily_usage: [
          { date: day(2), provider: 'gemini', tokens_used: 1000, cost: 0.01 },
          { date: day(1), provider: 'gemini', tokens_used: 1500, cost: 0.02 },
        ],
        totals: { tokens: 2500, cost: 0.03, requests: 4 },
        unpriced_requests: 0,
        window: { from: `${day(7)}T00:00:00.000Z`, to: `${day(-1)}T00:00:00.000Z`, timezone: 'UTC' },
      },
    }),
  );
  await signIn(page);
  const charts: string[] = [];
  page.on('request', (request) => {
    if (/\/admin\/assets\/charts-[^/]*\.js$/.test(request.url())) charts.push(request.url());
  });
  await page.goto('/admin/overview');
  await expect(page.getByRole('heading', { level: 1, name: 'System Overview' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(charts).toEqual([]);

  const waiting = page.getByRole('img', { name: /scrolled into view$/ });
  await waiting.first().scrollIntoViewIfNeeded();
  await expect.poll(() => charts.length).toBe(1);
  await expect(waiting).toHaveCount(0);
});

/** The console's own script refused, so a page shows only what the server sent. */
const withoutScript = (page: Page) => page.route(/\/admin\/assets\/.*\.js$/, (route) => route.abort());

test("a signed-in screen's first view is in its page, and the app's first render replaces it", async ({
  page,
}) => {
  await signIn(page);
  await withoutScript(page);
  await page.goto('/admin/config');
  const firstView = page.locator('[data-first-view]');
  await expect(firstView.locator('h1')).toHaveText('Configuration Management');
  await expect(firstView.locator('h1')).toBeVisible();
  // A picture of the screen until the app runs: nothing in it can be focused or pressed.
  await expect(firstView).toHaveAttribute('inert', '');

  await page.unrouteAll();
  await page.goto('/admin/config');
  await expect(page.getByRole('heading', { level: 1, name: 'Configuration Management' })).toBeVisible();
  await expect(firstView).toHaveCount(0);
});

test("a screen's first view is painted before the app's code runs", async ({ page }) => {
  await signIn(page);
  // When the app's entry script joins the page, by the performance clock.
  await page.addInitScript(() => {
    new MutationObserver((records, observer) => {
      const added = records.flatMap((record) => [...record.addedNodes]);
      if (!added.some((node) => node instanceof HTMLScriptElement && node.type === 'module')) return;
      (window as unknown as { entryAddedAt: number }).entryAddedAt = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/admin/config');
  await expect(page.getByRole('heading', { level: 1, name: 'Configuration Management' })).toBeVisible();
  // The paint's timing entry is queued after the frame is presented, which on a busy machine may be after
  // the heading is found in the page.
  const firstPaint = () =>
    page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
  await expect.poll(firstPaint).toBeDefined();
  const paintedAt = await firstPaint();
  const entryAddedAt = await page.evaluate(
    () => (window as unknown as { entryAddedAt?: number }).entryAddedAt,
  );
  expect(entryAddedAt).toBeGreaterThan(paintedAt!);
  // Nor is any of its scripts asked for before: a phone spends its first bytes on the view.
  const scriptsAskedAt = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((entry) => /\/admin\/assets\/.*\.js$/.test(entry.name))
      .map((entry) => entry.startTime),
  );
  expect(scriptsAskedAt.length).toBeGreaterThan(0);
  expect(Math.min(...scriptsAskedAt)).toBeGreaterThan(paintedAt!);
});

test("an alert's link shows what fired, since when and what to do before the app's code runs", async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const created = await request.post('/api/alerts/rules', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: unique('Slow calls '),
      // Slower than any call the specs report: it stays OK whenever it is evaluated.
      condition: { type: 'llm_latency', ms: 3_600_000, minutes: 5 },
      severity: 'warning',
      contact_point_ids: [],
      enabled: false,
    },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const rule = (await created.json()) as { id: number; name: string };
  await signIn(page);

  await withoutScript(page);
  await page.goto(`/admin/alerts?rule=${rule.id}`);
  const brief = page.locator('[data-first-view] [data-alert-brief]');
  await expect(brief.locator('h2')).toHaveText(rule.name);
  await expect(brief.locator('[data-brief="since"]')).toContainText(String(new Date().getFullYear()));
  await expect(brief.locator('[data-brief="next-heading"]')).toHaveText('If it fires');
  await expect(brief.locator('[data-brief="next"]')).toContainText(
    'Open the slow calls to see which provider',
  );
  await expect(brief.locator('a')).toHaveText('Open the slow calls');
  await expect(brief.locator('a')).toHaveAttribute('href', '/admin/metrics?tab=calls&min_latency_ms=3600000');

  // With its code, the app takes the rules first-load.js asked for instead of asking again.
  await page.unrouteAll();
  const asked: string[] = [];
  page.on('request', (call) => {
    if (new URL(call.url()).pathname === '/api/alerts/rules') asked.push(call.url());
  });
  await page.goto(`/admin/alerts?rule=${rule.id}`);
  const focus = page.getByRole('region', { name: rule.name });
  await expect(focus.getByRole('link', { name: 'Open the slow calls' })).toBeVisible();
  await expect(focus.getByRole('button', { name: 'Edit Rule' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(asked).toHaveLength(1);
});

test("a visitor without a session is not shown a screen's first view, and signs in", async ({ page }) => {
  await withoutScript(page);
  await page.goto('/admin/config');
  await expect(page.locator('[data-first-view]')).toBeAttached();
  await expect(page.locator('[data-first-view]')).toBeHidden();

  await page.unrouteAll();
  await page.goto('/admin/config');
  await expect(page).toHaveURL(/\/admin\/login$/);
});
