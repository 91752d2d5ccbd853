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
    /<link rel="modulepreload" crossorigin href="\/admin\/assets\/users-route-/,
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page.getByRole('cell', { name: /Administrator/ })).toBeVisible();
  await page.waitForLoadState('networkidle');

  expect(refreshes).toHaveLength(1);
  expect(refused).toEqual([]);
});
