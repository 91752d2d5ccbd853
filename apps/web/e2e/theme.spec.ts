import { expect, test } from '@playwright/test';
import { signIn } from './support/fixtures';

test('the theme menu switches between light, dark and the system setting', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await signIn(page);
  const html = page.locator('html');

  await page.getByRole('button', { name: /theme/i }).click();
  await page.getByRole('menuitemradio', { name: 'Dark' }).click();
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

  await page.getByRole('button', { name: /theme/i }).click();
  await page.getByRole('menuitemradio', { name: 'Light' }).click();
  await expect(html).not.toHaveClass(/dark/);

  await page.getByRole('button', { name: /theme/i }).click();
  await page.getByRole('menuitemradio', { name: 'System' }).click();
  await expect(html).not.toHaveClass(/dark/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveClass(/dark/);
});

test('a theme change switches the colours at once, without transitions', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await signIn(page);
  const html = page.locator('html');
  // The console has colour transitions (buttons and links fade on hover): a theme change must not run them.
  // The console renders after sign-in's redirect ("Loading..." first): count once the Overview is there.
  await expect(page.getByRole('heading', { name: 'System Overview' })).toBeVisible();
  const fading = await page.evaluate(() => document.querySelectorAll('.transition-colors').length);
  expect(fading).toBeGreaterThan(0);
  // Counts the transitions running two frames after the class changes, when a fade would be under way.
  const running = page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new MutationObserver(() => {
          const frame = () => new Promise((next) => requestAnimationFrame(next));
          void frame()
            .then(frame)
            .then(() => resolve(document.getAnimations().filter((a) => a instanceof CSSTransition).length));
        }).observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
      }),
  );
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveClass(/dark/);
  expect(await running).toBe(0);
});
