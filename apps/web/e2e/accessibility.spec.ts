import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support/fixtures';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

const screens = [
  '/admin/overview',
  '/admin/metrics',
  '/admin/config',
  '/admin/messages',
  '/admin/users',
  '/admin/admin',
  '/admin/profile',
];

for (const theme of ['light', 'dark'] as const) {
  test(`no serious accessibility violations on any screen (${theme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/admin/login');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    expect(await seriousViolations(page), '/admin/login').toEqual([]);

    await signIn(page);
    for (const path of screens) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page), path).toEqual([]);
    }
  });
}

test('every screen fits a 375 px wide screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page);
  for (const path of screens) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});
