import { expect, test } from '@playwright/test';
import { adminToken, createUser, signIn } from './support/fixtures';

// Spec section 2: the top bar holds the title, the navigation, the theme menu and the user menu. With every
// screen's item (an admin's) and a username of the most characters allowed, the page is never wider than
// the window: from 1280 px the bar lists the screens, narrower the menu button opens them.
const WIDTHS = [375, 768, 1024, 1279, 1280, 1440];

test('the top bar fits every width with every item and the longest username', async ({ page, request }) => {
  const username = `a${Date.now().toString(36)}`.padEnd(64, 'x');
  const password = 'Admin-Pass-4471';
  await createUser(request, await adminToken(request), { username, password, roleName: 'admin' });
  await signIn(page, username, password);

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    const nav = page.getByRole('navigation', { name: 'Main' });
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    if (width >= 1280) {
      await expect(nav.getByRole('link', { name: 'Admin' }), `${width} px`).toBeVisible();
      await expect(menuButton, `${width} px`).toBeHidden();
    } else {
      await expect(nav, `${width} px`).toBeHidden();
      await expect(menuButton, `${width} px`).toBeVisible();
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `the page is wider than a ${width} px window`).toBeLessThanOrEqual(0);
  }

  await page.setViewportSize({ width: 1024, height: 800 });
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog').getByRole('link', { name: 'Limits' }).click();
  await expect(page).toHaveURL(/\/admin\/limits$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Limits' })).toBeVisible();
});
