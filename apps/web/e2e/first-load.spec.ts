import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support/fixtures';

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

/** What public/first-load.js leaves for the app (src/lib/early-calls.ts). */
type EarlyCallsWindow = Window & { lumiEarlyCalls?: { made: string[]; calls: Record<string, unknown> } };

// What public/first-load.js asks for on each page, as soon as the session is restored.
const FIRST_CALLS: [string, string[]][] = [
  ['config', ['/api/admin/api/config/personalities']],
  ['messages', ['/api/v1/messaging/channels', '/api/v1/messaging/templates']],
  ['alerts', ['/api/alerts/rules']],
  ['alerts?rule=1', ['/api/alerts/rules']],
  ['limits', ['/api/limits']],
  ['users', ['/api/users?page=1&limit=20', '/api/roles']],
  ['admin', ['/api/admin/audit-logs?limit=50']],
  ['profile', ['/api/auth/profile', '/api/auth/2fa', '/api/auth/sessions']],
];

test("a screen's first calls go out with the session's refresh, and the app takes each answer once", async ({
  page,
}) => {
  await signIn(page);
  for (const [path, calls] of FIRST_CALLS) {
    const asked: string[] = [];
    const record = (request: { url: () => string; method: () => string }) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname.startsWith('/api/'))
        asked.push(url.pathname + url.search);
    };
    page.on('request', record);
    await page.goto(`/admin/${path}`);
    await page.waitForLoadState('networkidle');
    page.off('request', record);
    const early = await page.evaluate(() => {
      const { lumiEarlyCalls } = window as EarlyCallsWindow;
      return { made: lumiEarlyCalls?.made, left: Object.keys(lumiEarlyCalls?.calls ?? {}) };
    });
    expect(early, path).toEqual({ made: calls, left: [] });
    // Each asked for once: the app's own call took the early answer instead of asking again.
    expect(asked.filter((url) => calls.includes(url)).sort(), path).toEqual([...calls].sort());
  }

  // Another query on the page asks for other data: nothing is sent early.
  await page.goto('/admin/users?page=2');
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => (window as EarlyCallsWindow).lumiEarlyCalls)).toBeUndefined();
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

test("a visitor without a session is not shown a screen's first view, and signs in", async ({ page }) => {
  await withoutScript(page);
  await page.goto('/admin/config');
  await expect(page.locator('[data-first-view]')).toBeAttached();
  await expect(page.locator('[data-first-view]')).toBeHidden();

  await page.unrouteAll();
  await page.goto('/admin/config');
  await expect(page).toHaveURL(/\/admin\/login$/);
});
